import type { AnyResourceDefinition } from '@firewatch/resource-kit';
import { alertGroups } from './alert-groups.resource.js';
import { alertRetriggerRules } from './alert-retrigger-rules.resource.js';
import { alertUrgencies } from './alert-urgencies.resource.js';

/** Every resource on-call serves; adding one here mounts its routes, events and OpenAPI entry. */
export const resources: AnyResourceDefinition[] = [alertUrgencies, alertGroups, alertRetriggerRules];
