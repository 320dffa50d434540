import { createResourceRegistry } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from './on-call.deps.js';
import { alertGroups } from './alerts/alert-groups.resource.js';
import { alertRetriggerRules } from './alerts/alert-retrigger-rules.resource.js';
import { alertUrgencies } from './alerts/alert-urgencies.resource.js';
import { overrideShifts } from './schedules/override-shifts.resource.js';
import { scheduleRotationActiveDays } from './schedules/schedule-rotation-active-days.resource.js';
import { scheduleRotationUsers } from './schedules/schedule-rotation-users.resource.js';
import { scheduleRotations } from './schedules/schedule-rotations.resource.js';
import { schedules } from './schedules/schedules.resource.js';
import { shifts } from './schedules/shifts.resource.js';

/** Every resource on-call serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<OnCallResourceDeps>([
  alertUrgencies,
  alertGroups,
  alertRetriggerRules,
  schedules,
  scheduleRotations,
  scheduleRotationUsers,
  scheduleRotationActiveDays,
  overrideShifts,
  shifts,
]);
