import type { Knex } from 'knex';
import { writeEvents } from '@firewatch/events';
import type { Row, Transaction } from '@firewatch/resource-kit';
import type { UserChange } from '../domain/users/user-event.js';
import type { UserSyncStore } from '../domain/users/user-sync-store.js';
import type { UserSummary, UsersDeps } from '../domain/users/users.deps.js';

interface UserRow {
  user_id: number;
  team_id: number;
  name: string;
  email: string;
  deleted_at: Date | null;
}

// Ids outside PostgreSQL's integer range can name no user; asking would be an error.
const validIds = (ids: readonly number[]) => [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647);

/** Reads of the users read model for on-call's declarations. */
export function createUsersRepository(): UsersDeps {
  return {
    async existing(tx, teamId, userIds) {
      const ids = validIds(userIds);
      if (!ids.length) return new Set<number>();
      const rows: { user_id: number }[] = await tx('users')
        .where({ team_id: teamId })
        .whereIn('user_id', ids)
        .whereNull('deleted_at')
        .forShare()
        .select('user_id');
      return new Set(rows.map((r) => r.user_id));
    },
    async summaries(tx, teamId, userIds) {
      const ids = validIds(userIds);
      const out = new Map<number, UserSummary>();
      if (!ids.length) return out;
      const rows: UserRow[] = await tx('users')
        .where({ team_id: teamId })
        .whereIn('user_id', ids)
        .select('user_id', 'name', 'email', 'deleted_at');
      for (const r of rows) out.set(r.user_id, { id: r.user_id, name: r.name, email: r.email, deleted: r.deleted_at !== null });
      return out;
    },
  };
}

/** Writes of the users read model, for the `user.*` consumer. */
export function createUserSyncStore(knex: Knex): UserSyncStore {
  return {
    transaction: (fn) => knex.transaction(fn),
    async apply(tx: Transaction, change: UserChange) {
      const values = { ...change, updated_at: tx.fn.now() };
      // One statement decides under the row lock: a concurrent older event cannot slip in between a read and a write.
      const rows = await tx('users')
        .insert(values)
        .onConflict('user_id')
        .merge([
          'team_id',
          'name',
          'email',
          'role',
          'on_call_role',
          'is_service_account',
          'time_zone',
          'version',
          'occurred_at',
          'deleted_at',
          'updated_at',
        ])
        .where('users.version', '<', change.version)
        .returning('user_id');
      return rows.length > 0;
    },
    async removeMemberships(tx: Transaction, teamId: number, userId: number): Promise<Row[]> {
      const removed: Row[] = await tx('schedule_rotation_users').where({ team_id: teamId, user_id: userId }).delete().returning('*');
      // Each keeps its turn slot (migrations 0090, 0093) for the turns that began before now; later turns go to the others.
      if (removed.length) {
        await tx('schedule_rotation_vacancies')
          .insert(
            removed.map((m) => ({
              id: m.id,
              team_id: m.team_id,
              schedule_rotation_id: m.schedule_rotation_id,
              user_id: m.user_id,
              position: m.position,
              member_created_at: m.created_at,
              left_at: tx.fn.now(),
            })),
          )
          .onConflict('id')
          .ignore();
      }
      return removed;
    },
    async removeOwned(tx, table, teamId, userId) {
      const removed: Row[] = await tx(table).where({ team_id: teamId, user_id: userId }).delete().returning('*');
      return removed.sort((a, b) => +(a.created_at as Date) - +(b.created_at as Date) || String(a.id).localeCompare(String(b.id)));
    },
    async writeEvents(tx, events) {
      await writeEvents(tx, events);
    },
  };
}

/** True while no user event has reached the read model (start-up hint to run the backfill). */
export async function usersReadModelEmpty(knex: Knex): Promise<boolean> {
  return !(await knex('users').first('user_id'));
}
