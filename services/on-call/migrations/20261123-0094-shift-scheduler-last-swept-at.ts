import type { Knex } from 'knex';

/**
 * When the shift.started scheduler last swept for running shifts never announced. Kept
 * apart from the watermark, which every announcing tick moves: on a busy system the
 * watermark is never a minute old, and a sweep keyed on it would never run.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_scheduler_state', (t) => {
    t.timestamp('last_swept_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_scheduler_state', (t) => {
    t.dropColumn('last_swept_at');
  });
}
