import type { Row, Transaction } from '@firewatch/resource-kit';
import type { UsersDeps } from './users/users-deps.js';
import type { SchedulingDeps } from './scheduling-deps.js';
import type { ShiftsDeps } from './shift-deps.js';

/**
 * What on-call's declarations receive as `ctx.deps`: data-layer functions, so that the
 * domain never builds a query itself. app.ts gives the implementations.
 */
export interface OnCallResourceDeps {
  positions: {
    /** The position after the team's last record in `table`. */
    next(tx: Transaction, table: string, teamId: number): Promise<number>;
  };
  /** The team's records of `table` among `ids` (e.g. the urgencies a condition names). */
  existing: {
    ids(tx: Transaction, table: string, teamId: number, ids: readonly string[]): Promise<Set<string>>;
  };
  /** The records whose conditions name an alert urgency, by JSON:API type (`alert_groups`: [{id, name}]). */
  urgencyUses(tx: Transaction, teamId: number, urgencyId: string): Promise<Record<string, { id: string; name: string }[]>>;
  /** The team's users, from the read model of auth's `user.*` events (users-deps.ts). */
  users: UsersDeps;
  scheduling: SchedulingDeps;
  /** What shift computation reads (GET /v1/shifts, the shift.started scheduler). */
  shifts: ShiftsDeps;
}

export type { Row };
