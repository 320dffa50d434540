import type { Transaction } from '@firewatch/resource-kit';
import type { LevelTarget } from '../paging/paging.ports.js';
import type { PathRecord } from './path-selection.js';
import type { BusinessHours } from './time-windows.js';

/** An `escalation_policies` row as the plans read it. */
export interface PolicyRecord {
  id: string;
  name: string;
  repeat_count: number;
  group_ids: string[];
  service_ids: string[];
  business_hours: BusinessHours | null;
}

/** An `escalation_paths` row as the plans read it. */
export interface StoredPath extends PathRecord {
  notification_type: 'audible' | 'quiet';
  repeat: boolean;
  repeat_count: number;
  initial_delay: number;
}

/** An `escalation_levels` row as the plans read it. */
export interface StoredLevel {
  id: string;
  escalation_policy_path_id: string;
  position: number;
  delay: number;
  paging_strategy_configuration_strategy: string | null;
  paging_strategy_configuration_schedule_strategy: string | null;
  notification_target_params: (LevelTarget | null)[] | null;
}

/** A policy with its paths, and their levels unless they are many (then read for the path chosen). */
export interface PolicyPlanRecord {
  policy: PolicyRecord;
  /** By position. */
  paths: StoredPath[];
  /** Every path's, by path and position; null when the policy has more than the read brings (then `levels` reads the chosen path's). */
  levels: StoredLevel[] | null;
}

/** What escalation plans read and write (data/escalation-plans.repository.ts), each per team. */
export interface EscalationPlansStore {
  /** The policy, its paths and (up to a bound) their levels, in one read; null when the team has no such policy. */
  policyPlan(tx: Transaction, teamId: number, id: string): Promise<PolicyPlanRecord | null>;
  /** The oldest policy whose `group_ids` (or `service_ids`) holds `id` (then by id), null when none. */
  policyNaming(
    tx: Transaction,
    teamId: number,
    column: 'group_ids' | 'service_ids',
    id: string,
  ): Promise<{ id: string; name: string } | null>;
  /** The levels of the paths `pathIds`, by path and position. */
  levels(tx: Transaction, teamId: number, pathIds: readonly string[]): Promise<StoredLevel[]>;
  /** The team's users among `ids` in the users read model, deleted ones marked. */
  users(tx: Transaction, teamId: number, ids: readonly number[]): Promise<Map<number, { name: string; deleted: boolean }>>;
  /** A live team (auth's group) of the tenant with its members and admins, from the targets read model. */
  team(tx: Transaction, teamId: number, id: string): Promise<{ name: string | null; member_ids: number[]; admin_ids: number[] } | null>;
  schedule(tx: Transaction, teamId: number, id: string): Promise<{ id: string; name: string } | null>;
  /** The members of the schedule's rotations that have not ended by `at`, in rotation and turn order, each once. */
  scheduleMembers(tx: Transaction, teamId: number, scheduleId: string, at: Date): Promise<number[]>;
  /** The level's cycle turn, 0 the first time, moved on by one in `tx` (a row per level); 0 for a level deleted since. */
  nextTurn(tx: Transaction, teamId: number, levelId: string): Promise<number>;
}
