import type { Knex } from 'knex';
import type { Role } from '@firewatch/auth';
import type { LinkStore } from '../domain/notifications/alert-link-actions.js';

/** The users read model and the used links' table, as signed action links need them. */
export function createAlertActionLinksRepository(knex: Knex): LinkStore {
  return {
    async roles(teamId, userId) {
      const row = (await knex('users')
        .where({ user_id: userId, team_id: teamId })
        .whereNull('deleted_at')
        .first('role', 'on_call_role')) as { role: Role; on_call_role: Role } | undefined;
      return row ?? null;
    },
    async claim(tx, claims) {
      const inserted = await (tx as Knex.Transaction)('alert_action_link_uses')
        .insert({
          id: claims.id,
          team_id: claims.team_id,
          alert_id: claims.alert_id,
          user_id: claims.user_id,
          action: claims.action,
          attempt_id: claims.attempt_id,
          expires_at: claims.expires_at,
        })
        .onConflict('id')
        .ignore()
        .returning('id');
      return inserted.length === 1;
    },
    async used(id) {
      return (await knex('alert_action_link_uses').where({ id }).first('id')) !== undefined;
    },
  };
}
