import type { AnyResourceDefinition } from '@firewatch/resource-kit';
import { environments } from './environments.resource.js';

/** Every resource incident-config serves; adding one here mounts its routes, events and OpenAPI entry. */
export const resources: AnyResourceDefinition[] = [environments];
