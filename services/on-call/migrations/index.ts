import type { Migrations } from '@firewatch/db';
import { outboxMigration } from '@firewatch/events';
import { idempotencyMigration } from '@firewatch/http';
import * as alertUrgencies from './20261123-0001-alert-urgencies.js';
import * as alertGroups from './20261123-0002-alert-groups.js';
import * as alertRetriggerRules from './20261123-0020-alert-retrigger-rules.js';
import * as schedules from './20261123-0040-schedules.js';
import * as users from './20261123-0060-users.js';
import * as shiftStarts from './20261123-0070-shift-starts.js';
import * as rotationVacancies from './20261123-0090-schedule-rotation-vacancies.js';
import * as schedulerStartedAt from './20261123-0091-shift-scheduler-started-at.js';
import * as overrideCreators from './20261123-0092-override-shift-creators.js';
import * as vacancyLeftAt from './20261123-0093-vacancy-left-at.js';
import * as lastSweptAt from './20261123-0094-shift-scheduler-last-swept-at.js';
import * as shiftStartSources from './20261123-0095-shift-start-sources.js';
import * as targets from './20261125-0140-targets.js';
import * as alertsIn from './20261125-0200-alerts-in.js';
import * as alertDeduplicationScope from './20261125-0201-alert-deduplication-scope.js';
import * as contactMethods from './20261125-0300-contact-methods.js';
import * as ownerGroupsAsTeamIds from './20261125-0400-owner-groups-as-team-ids.js';
import * as heartbeats from './20261125-0600-heartbeats.js';
import * as alertRetriggerTimers from './20261125-0500-alert-retrigger-timers.js';
import * as alertGrouping from './20261125-0710-alert-grouping.js';
import * as alertRouting from './20261126-0300-alert-routing.js';
import * as escalationPolicies from './20261126-0100-escalation-policies.js';
import * as targetTeamMembers from './20261126-0200-target-team-members.js';
import * as escalationLevelTurns from './20261126-0201-escalation-level-turns.js';
import * as alertActionLinkUses from './20261126-0400-alert-action-link-uses.js';
import * as emailAddressVerification from './20261126-0410-email-address-verification.js';
import * as opaqueAlertActionLinks from './20261126-0450-opaque-alert-action-links.js';
import * as alertIntakeLockAndRead from './20261230-0100-alert-intake-lock-and-read.js';
import * as alertActionLinkChannels from './20261230-0500-alert-action-link-channels.js';
import * as listOrderIndexes from './20261230-0501-list-order-indexes.js';
import * as intakeCustomPlans from './20261231-0100-intake-custom-plans.js';
import * as redundantIndexes from './20261231-0800-redundant-indexes.js';
import * as alertPaging from './20261126-0500-alert-paging.js';
import * as dropContactPrimaryColumns from './20261126-0550-drop-contact-primary-columns.js';
import * as heartbeatSecrets from './20261126-0600-heartbeat-secrets.js';
import * as alertSourceRateLimits from './20261126-0610-alert-source-rate-limits.js';
import * as alertGroupLeadersBySummary from './20261126-0650-alert-group-leaders-by-summary.js';

/**
 * Every schema change of on-call, applied in name order. Numbers 0001–0019 hold
 * urgencies and groups, 0020–0039 re-trigger rules; later features take the next block.
 */
export const migrations: Migrations = {
  '20261123-0000-outbox': outboxMigration,
  '20261123-0001-alert-urgencies': alertUrgencies,
  '20261123-0002-alert-groups': alertGroups,
  '20261123-0020-alert-retrigger-rules': alertRetriggerRules,
  '20261123-0040-schedules': schedules,
  '20261123-0060-users': users,
  '20261123-0070-shift-starts': shiftStarts,
  '20261123-0090-schedule-rotation-vacancies': rotationVacancies,
  '20261123-0091-shift-scheduler-started-at': schedulerStartedAt,
  '20261123-0092-override-shift-creators': overrideCreators,
  '20261123-0093-vacancy-left-at': vacancyLeftAt,
  '20261123-0094-shift-scheduler-last-swept-at': lastSweptAt,
  '20261123-0095-shift-start-sources': shiftStartSources,
  '20261125-0096-idempotency-keys': idempotencyMigration,
  '20261125-0140-targets': targets,
  '20261125-0200-alerts-in': alertsIn,
  '20261125-0201-alert-deduplication-scope': alertDeduplicationScope,
  '20261125-0300-contact-methods': contactMethods,
  '20261125-0400-owner-groups-as-team-ids': ownerGroupsAsTeamIds,
  '20261125-0600-heartbeats': heartbeats,
  '20261125-0500-alert-retrigger-timers': alertRetriggerTimers,
  '20261125-0710-alert-grouping': alertGrouping,
  '20261126-0300-alert-routing': alertRouting,
  '20261126-0100-escalation-policies': escalationPolicies,
  '20261126-0200-target-team-members': targetTeamMembers,
  '20261126-0201-escalation-level-turns': escalationLevelTurns,
  '20261126-0400-alert-action-link-uses': alertActionLinkUses,
  '20261126-0410-email-address-verification': emailAddressVerification,
  '20261126-0450-opaque-alert-action-links': opaqueAlertActionLinks,
  '20261126-0500-alert-paging': alertPaging,
  '20261126-0550-drop-contact-primary-columns': dropContactPrimaryColumns,
  '20261126-0600-heartbeat-secrets': heartbeatSecrets,
  '20261126-0610-alert-source-rate-limits': alertSourceRateLimits,
  '20261126-0650-alert-group-leaders-by-summary': alertGroupLeadersBySummary,
  '20261230-0100-alert-intake-lock-and-read': alertIntakeLockAndRead,
  '20261230-0500-alert-action-link-channels': alertActionLinkChannels,
  '20261230-0501-list-order-indexes': listOrderIndexes,
  '20261231-0100-intake-custom-plans': intakeCustomPlans,
  '20261231-0800-redundant-indexes': redundantIndexes,
};
