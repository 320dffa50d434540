import type { Knex } from 'knex';
import type { VerificationStore } from '../domain/notifications/email-verification.js';

/** The verification columns of `user_email_addresses`, written in the action's transaction (a refused mail's undoing after it). */
export function createEmailVerificationRepository(knex: Knex): VerificationStore {
  return {
    async setPending(tx, id, pending) {
      await (tx as Knex.Transaction)('user_email_addresses').where({ id }).update({
        verification_hash: pending.hash,
        verification_expires_at: pending.expires_at,
        verification_sent_at: pending.sent_at,
      });
    },
    async restore(id, hash, previous) {
      await knex('user_email_addresses').where({ id, verification_hash: hash }).update({
        verification_hash: previous.hash,
        verification_expires_at: previous.expires_at,
        verification_sent_at: previous.sent_at,
      });
    },
    async markVerified(tx, id, at) {
      await (tx as Knex.Transaction)('user_email_addresses')
        .where({ id })
        .update({ verified_at: at, verification_hash: null, verification_expires_at: null });
    },
  };
}
