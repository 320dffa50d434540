import { createResourceRegistry } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call-deps.js';
import { alertGroups } from './alert-groups.resource.js';
import { alertRetriggerRules } from './alert-retrigger-rules.resource.js';
import { alertUrgencies } from './alert-urgencies.resource.js';
import { overrideShifts } from './override-shifts.resource.js';
import { scheduleRotationActiveDays } from './schedule-rotation-active-days.resource.js';
import { scheduleRotationUsers } from './schedule-rotation-users.resource.js';
import { scheduleRotations } from './schedule-rotations.resource.js';
import { schedules } from './schedules.resource.js';
import { shifts } from './shifts.resource.js';

/** Every resource on-call serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<OnCallResourceDeps>([alertUrgencies, alertGroups, alertRetriggerRules, schedules, scheduleRotations, scheduleRotationUsers, scheduleRotationActiveDays, overrideShifts, shifts]);
