import type { Knex } from 'knex';
import type { Role } from '@firewatch/auth';
import type { ActionLinkStore, StoredLink } from '../domain/notifications/action-links.js';
import type { LinkUsers } from '../domain/notifications/alert-link-actions.js';

/** How long a row outlives its link: till then an expired link says so (410) rather than "not valid" (404). */
const KEPT_AFTER_EXPIRY = '7 days';
/** Rows past that removed with each link made: more than a page makes, so the table stays bounded without a job. */
const PURGE_BATCH = 8;

/** The action links' table (migrations/20261126-0450-opaque-alert-action-links.ts). */
export function createActionLinkStore(knex: Knex): ActionLinkStore {
  return {
    async insert(links) {
      // One statement: the links, and rows long expired purged (replicas purging at once skip each other's rows rather than wait on them).
      await knex.raw(
        `WITH purged AS (
           DELETE FROM alert_action_links WHERE id IN (
             SELECT id FROM alert_action_links WHERE expires_at < now() - ?::interval
             ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED)
         ) ?`,
        [KEPT_AFTER_EXPIRY, PURGE_BATCH, knex('alert_action_links').insert(links)],
      );
    },
    async find(digest) {
      return ((await knex('alert_action_links').where({ token_digest: digest }).first()) as StoredLink | undefined) ?? null;
    },
    async claim(tx, digest, at) {
      const spent = await (tx as Knex.Transaction)('alert_action_links')
        .where({ token_digest: digest })
        .whereNull('used_at')
        .update({ used_at: at });
      return spent === 1;
    },
  };
}

/** The users read model, as action links need it. */
export function createLinkUsersRepository(knex: Knex): LinkUsers {
  return {
    async roles(teamId, userId) {
      const row = (await knex('users')
        .where({ user_id: userId, team_id: teamId })
        .whereNull('deleted_at')
        .first('role', 'on_call_role')) as { role: Role; on_call_role: Role } | undefined;
      return row ?? null;
    },
  };
}
