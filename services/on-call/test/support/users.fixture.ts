import type { Knex } from 'knex';

export interface SeedUser {
  team_id: number;
  user_id: number;
  name?: string;
  email?: string;
  /** Seeds a tombstone, as `user.deleted` leaves it. */
  deleted?: boolean;
}

/**
 * Puts users straight into on-call's users read model, as auth's `user.*` events would
 * (tests of other resources need users without a broker round trip).
 */
export async function seedUsers(knex: Knex, users: SeedUser[]): Promise<void> {
  if (!users.length) return;
  const now = new Date();
  await knex('users')
    .insert(
      users.map((u) => ({
        user_id: u.user_id,
        team_id: u.team_id,
        name: u.name ?? `User ${u.user_id}`,
        email: u.email ?? `user${u.user_id}@team${u.team_id}.test`,
        role: 'user',
        on_call_role: 'user',
        is_service_account: false,
        version: 1,
        occurred_at: now,
        deleted_at: u.deleted ? now : null,
      })),
    )
    .onConflict('user_id')
    .merge();
}
