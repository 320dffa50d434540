import type { AnyResourceDefinition } from '@firewatch/resource-kit';
import { communicationsStages } from './communications-stages.resource.js';
import { communicationsTemplates } from './communications-templates.resource.js';
import { communicationsTypes } from './communications-types.resource.js';

/** Every resource communications serves; adding one here mounts its routes, events and OpenAPI entry. */
export const resources: AnyResourceDefinition[] = [communicationsTypes, communicationsStages, communicationsTemplates];
