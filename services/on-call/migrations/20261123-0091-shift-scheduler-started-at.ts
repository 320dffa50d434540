import type { Knex } from 'knex';

/**
 * When the shift.started scheduler first looked: shifts that appear with a start already
 * past are announced late, but never one that began before the scheduler ever ran (its
 * first run announces nothing from before it, docs/on-call.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_scheduler_state', (t) => {
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('shift_scheduler_state', (t) => {
    t.dropColumn('started_at');
  });
}
