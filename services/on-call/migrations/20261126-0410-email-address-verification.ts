import type { Knex } from 'knex';

/**
 * Email address verification (docs/paging.md, "Verifying email addresses"): when an
 * address was verified, and the pending code sent to it, kept as SHA-256 only, with when it
 * expires and when it was sent (resending is throttled by it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_email_addresses', (t) => {
    t.timestamp('verified_at', { useTz: true });
    t.text('verification_hash');
    t.timestamp('verification_expires_at', { useTz: true });
    t.timestamp('verification_sent_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_email_addresses', (t) => {
    t.dropColumns('verified_at', 'verification_hash', 'verification_expires_at', 'verification_sent_at');
  });
}
