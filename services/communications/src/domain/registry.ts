import { createResourceRegistry } from '@firewatch/resource-kit';
import type { CommunicationsDeps } from './communications.deps.js';
import { communicationsStages } from './stages/communications-stages.resource.js';
import { communicationsTemplates } from './templates/communications-templates.resource.js';
import { communicationsTypes } from './types/communications-types.resource.js';

/** Every resource communications serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<CommunicationsDeps>([communicationsTypes, communicationsStages, communicationsTemplates]);
