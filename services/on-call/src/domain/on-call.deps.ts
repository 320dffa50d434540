import type { Row, Transaction } from '@firewatch/resource-kit';
import type { AlertPagingDeps, AlertsInDeps } from './alerts-in/alerts-in.deps.js';
import type { ContactsDeps } from './contacts/contacts.deps.js';
import type { OncallsDeps } from './escalation-plans/oncalls.deps.js';
import type { EscalationDeps } from './escalation/escalation.deps.js';
import type { OverrideSpec, RotationSpec, TimeWindow } from './shifts/index.js';
import type { TargetsDeps } from './targets/targets.deps.js';
import type { UserSummary, UsersDeps } from './users/users.deps.js';

/**
 * What on-call's declarations receive as `ctx.deps`: data-layer functions, so that the
 * domain never builds a query itself. app.ts gives the implementations.
 */
export interface OnCallResourceDeps {
  /** The team's alert urgencies as conditions name them. */
  urgencies: UrgenciesDeps;
  /** Alert events (the timeline) the alert writes add (alerts-in/alerts-in.deps.ts). */
  alertsIn: AlertsInDeps;
  /** The team's users, from the read model of auth's `user.*` events (users/users.deps.ts). */
  users: UsersDeps;
  /** What alert groups may target, from the read model of other services' events (targets/targets.deps.ts). */
  targets: TargetsDeps;
  scheduling: SchedulingDeps;
  /** Users' contact methods and notification rules beyond the kit's own queries (contacts/contacts.deps.ts). */
  contacts: ContactsDeps;
  /** What shift computation reads (GET /v1/shifts, the shift.started scheduler). */
  shifts: ShiftsDeps;
  /** Escalation policies' paths, levels and the graph of team escalations (escalation/escalation.deps.ts). */
  escalation: EscalationDeps;
  /** What GET /v1/oncalls reads: policies with paths and levels, teams' members, schedules' names and members (escalation-plans/oncalls.deps.ts). */
  oncalls: OncallsDeps;
  /** The most one GET /v1/shifts reads before computing. */
  shiftReads: ShiftReadBounds;
  /** The paging engine as alert writes drive it, and the alerts' paging attributes (docs/paging.md). */
  paging: AlertPagingDeps;
}

/** How much of the engine's input one request may read (docs/on-call.md, "Range"). */
export interface ShiftReadBounds {
  rotations: number;
  /** Members and the slots of deleted members (vacancies), over every rotation read. */
  memberSlots: number;
}

export type { Row };

/** What the alert declarations need to know of the urgencies their conditions name (`ctx.deps.urgencies`). */
export interface UrgenciesDeps {
  /**
   * The team's urgency ids among `ids`. Each found row is held FOR SHARE until `tx` ends, so
   * a delete of it (which locks it first) waits for the write and then sees it in use.
   */
  existingIds(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Set<string>>;
  /** The records whose conditions name the urgency, by JSON:API type (`alert_groups`: [{id, name}]). */
  uses(tx: Transaction, teamId: number, urgencyId: string): Promise<Record<string, { id: string; name: string }[]>>;
}

/** What the schedule declarations need from the data layer beyond the kit (`ctx.deps.scheduling`). */
export interface SchedulingDeps {
  /**
   * Locks the schedule's overrides for the rest of the transaction (so two racing writes
   * cannot both find the time free), then finds an override of it overlapping
   * `[startsAt, endsAt)`.
   */
  overlappingOverride(
    tx: Transaction,
    scheduleId: string,
    startsAt: Date,
    endsAt: Date,
  ): Promise<{ id: string; starts_at: Date; ends_at: Date } | undefined>;
}

/** Which rotations a read of the engine's input takes (`ShiftsDeps.rotations`). */
export interface RotationScope {
  teamId?: number;
  scheduleIds?: readonly string[];
  live?: { from: number; to: number };
  bounds?: ShiftReadBounds;
}

/** A stored rotation: its schedule_rotations row with its member slots and active days. */
export interface RotationRecord {
  id: string;
  schedule_id: string;
  position: number;
  schedule_rotationable_type: string;
  schedule_rotationable_attributes: {
    handoff_time?: string;
    handoff_day?: string;
    shift_length?: number;
    shift_length_unit?: 'hours' | 'days' | 'weeks';
  };
  time_zone: string;
  start_time: Date | null;
  end_time: Date | null;
  created_at: Date;
  active_all_week: boolean;
  active_days: string[];
  active_time_type: string;
  active_time_attributes: TimeWindow[];
  /** Members and the slots of members whose user was deleted (they keep their place, left_at set), in turn order. */
  member_slots: readonly { user_id: number; left_at: Date | null }[];
  /** Its schedule_rotation_active_days (`custom` active times). */
  active_day_rows: readonly { day_name: string; active_time_attributes: TimeWindow[] }[];
}

/** What shift computation reads (`ctx.deps.shifts`): read-only, outside any write's transaction. */
export interface ShiftsDeps {
  /**
   * The rotations of the team's schedules (all, or those among `scheduleIds`) as stored,
   * members in turn order. No team: every team's. `live`: only those started before `to`
   * and not ended by `from` (the scheduler's look). `bounds`: it reads at most one rotation
   * and one member slot past each and, once past one, nothing more; `readRotations`
   * (schedules/shift-inputs.ts) refuses such a read.
   */
  rotations(scope: RotationScope): Promise<RotationRecord[]>;
  /** Overrides of those schedules overlapping [from, to). */
  /** At most `limit` rows when given (the reader's budget left plus one: more cannot be computed anyway). */
  overrides(scope: { teamId?: number; scheduleIds?: readonly string[] }, from: number, to: number, limit?: number): Promise<OverrideSpec[]>;
  /**
   * The team's schedule ids among `scheduleIds` (all when absent) that a group key's groups
   * own (`groupIds`) and a record-scoped key names (`recordIds`); null: no such narrowing.
   */
  scheduleIds(scope: {
    teamId: number;
    scheduleIds?: readonly string[];
    groupIds: readonly string[] | null;
    recordIds: readonly string[] | null;
  }): Promise<string[]>;
  /** Up to `limit` schedules of every team with ids after `afterId` (null: from the first), by id: the scheduler pages through them. */
  schedulesAfter(afterId: string | null, limit: number): Promise<{ id: string; team_id: number }[]>;
  /** The team's override shifts among `ids`, as GET /v1/shifts' include=shift_override shows them. */
  overrideRecords(
    teamId: number,
    ids: readonly string[],
  ): Promise<{ id: string; created_by_user_id: number; created_at: Date; updated_at: Date }[]>;
  /** Logs a rotation left out of a computation because this runtime does not know its time zone. */
  skipped(rotation: RotationSpec): void;
  /** Users named by shifts, deleted ones included. */
  users(teamId: number, userIds: readonly number[]): Promise<Map<number, UserSummary>>;
}
