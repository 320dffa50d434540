import type { Knex } from 'knex';

/**
 * An acknowledged alert's re-trigger timer lives on the alert (docs/on-call.md,
 * "Re-trigger"): when it is due and which rule chose it. One column pair, not a timers
 * table: a new acknowledgment overwrites the timer, so a stale one cannot fire, and the
 * job's claim is one row lock on the alert it changes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE alerts ADD COLUMN retrigger_at timestamptz, ADD COLUMN retrigger_rule_id uuid`);
  await knex.raw(`CREATE INDEX alerts_retrigger_at ON alerts (retrigger_at) WHERE retrigger_at IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX alerts_retrigger_at`);
  await knex.raw(`ALTER TABLE alerts DROP COLUMN retrigger_at, DROP COLUMN retrigger_rule_id`);
}
