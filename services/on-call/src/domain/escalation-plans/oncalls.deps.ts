import type { StoredLevel, StoredPath } from './escalation-plans.store.js';

/** A policy with its paths (deferral paths left out), each with its levels by position. */
export interface OncallPolicy {
  id: string;
  name: string;
  paths: (StoredPath & { levels: StoredLevel[] })[];
}

/** What GET /v1/oncalls reads (`ctx.deps.oncalls`), outside any transaction, per team. */
export interface OncallsDeps {
  /**
   * The team's policies, all or those among `policyIds`, naming one of `serviceIds` or
   * `groupIds` when given, with their escalation paths of `notificationTypes` (all when
   * absent), by name then id. It reads at most `limit` paths and `limit` levels plus one
   * of each: `paths` and `levels` count what it read, so a caller sees the bound passed.
   */
  policies(
    teamId: number,
    filter: {
      policyIds?: readonly string[];
      serviceIds?: readonly string[];
      groupIds?: readonly string[];
      notificationTypes?: readonly string[];
    },
    limit: number,
  ): Promise<{ policies: OncallPolicy[]; paths: number; levels: number }>;
  /** Live teams (auth's groups) among `ids`, with their members and admins. */
  teams(teamId: number, ids: readonly string[]): Promise<Map<string, { member_ids: number[]; admin_ids: number[] }>>;
  /** The names of the team's schedules among `ids`. */
  scheduleNames(teamId: number, ids: readonly string[]): Promise<Map<string, string>>;
  /** Each schedule's members of its rotations not ended by `at`, in rotation and turn order, each once. */
  scheduleMembers(teamId: number, ids: readonly string[], at: Date): Promise<Map<string, number[]>>;
  /** The live (not deleted) users of the team among `ids`. */
  liveUsers(teamId: number, ids: readonly number[]): Promise<Set<number>>;
}
