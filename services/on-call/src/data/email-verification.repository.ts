import type { Knex } from 'knex';
import type { VerificationStore } from '../domain/notifications/email-verification.js';

/** The verification columns of `user_email_addresses`, written in the action's transaction. */
export function createEmailVerificationRepository(): VerificationStore {
  return {
    async setPending(tx, id, pending) {
      await (tx as Knex.Transaction)('user_email_addresses').where({ id }).update({
        verification_hash: pending.hash,
        verification_expires_at: pending.expires_at,
        verification_sent_at: pending.sent_at,
      });
    },
    async markVerified(tx, id, at) {
      await (tx as Knex.Transaction)('user_email_addresses')
        .where({ id })
        .update({ verified_at: at, verification_hash: null, verification_expires_at: null });
    },
  };
}
