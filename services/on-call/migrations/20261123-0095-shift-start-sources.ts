import type { Knex } from 'knex';

/**
 * What each announced start came from (`rotation:<id>` or `override:<id>`): the sweep
 * skips a running shift when the same schedule, source and user already had a start
 * announced within it, so a stint whose start moved earlier (an override before it
 * deleted) is not announced again (docs/on-call.md). Existing rows take it from their key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_starts', (t) => {
    t.text('source');
  });
  await knex.raw(`UPDATE shift_starts SET source = split_part(shift_key, '|', 2)`);
  await knex.schema.alterTable('shift_starts', (t) => {
    t.index(['schedule_id', 'source', 'user_id', 'starts_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_starts', (t) => {
    t.dropIndex(['schedule_id', 'source', 'user_id', 'starts_at']);
    t.dropColumn('source');
  });
}
