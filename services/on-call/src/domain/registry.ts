import { createResourceRegistry } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from './on-call.deps.js';
import { alertSources } from './alert-sources/alert-sources.resource.js';
import { alertEvents } from './alerts-in/alert-events.resource.js';
import { alertEventsFeed } from './alerts-in/alert-events-feed.resource.js';
import { alerts } from './alerts-in/alerts.resource.js';
import { alertGroups } from './alerts/alert-groups.resource.js';
import { alertRetriggerRules } from './alerts/alert-retrigger-rules.resource.js';
import { alertUrgencies } from './alerts/alert-urgencies.resource.js';
import { escalationLevels, escalationPathLevels } from './escalation/escalation-levels.resource.js';
import { escalationPaths } from './escalation/escalation-paths.resource.js';
import { escalationPolicies } from './escalation/escalation-policies.resource.js';
import { oncalls } from './escalation-plans/oncalls.resource.js';
import { heartbeats } from './heartbeats/heartbeats.resource.js';
import { alertRoutes } from './routing/alert-routes.resource.js';
import { alertRoutingRules } from './routing/alert-routing-rules.resource.js';
import { overrideShifts } from './schedules/override-shifts.resource.js';
import { scheduleRotationActiveDays } from './schedules/schedule-rotation-active-days.resource.js';
import { scheduleRotationUsers } from './schedules/schedule-rotation-users.resource.js';
import { scheduleRotations } from './schedules/schedule-rotations.resource.js';
import { schedules } from './schedules/schedules.resource.js';
import { shifts } from './schedules/shifts.resource.js';
import { userEmailAddresses } from './contacts/user-email-addresses.resource.js';
import { userNotificationRules } from './contacts/user-notification-rules.resource.js';
import { userPhoneNumbers } from './contacts/user-phone-numbers.resource.js';

/** Every resource on-call serves, by name; adding one here mounts its routes, events and OpenAPI entry. */
export const registry = createResourceRegistry<OnCallResourceDeps>([
  alertUrgencies,
  alertGroups,
  alertRetriggerRules,
  alertSources,
  alerts,
  alertEvents,
  alertEventsFeed,
  heartbeats,
  alertRoutes,
  alertRoutingRules,
  schedules,
  scheduleRotations,
  scheduleRotationUsers,
  scheduleRotationActiveDays,
  overrideShifts,
  shifts,
  userEmailAddresses,
  userPhoneNumbers,
  userNotificationRules,
  escalationPolicies,
  escalationPaths,
  escalationLevels,
  escalationPathLevels,
  oncalls,
]);

/** What a user owns, by declaration name, in the order a deletion of the user removes it: rules before the contact methods they name. */
export const PERSONAL_DECLARATIONS = ['user_notification_rules', 'user_phone_numbers', 'user_email_addresses'] as const;
