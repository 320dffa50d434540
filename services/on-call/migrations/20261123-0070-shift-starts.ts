import type { Knex } from 'knex';

/**
 * The shift.started scheduler's memory (issue 12). `shift_starts` holds one row per computed
 * shift whose start was announced: its primary key makes "each shift once" hold across
 * restarts and replicas (two replicas inserting the same key: one row, one event, the insert
 * and the outbox row in one transaction). `shift_scheduler_state` holds how far the
 * scheduler has looked, so after downtime it catches up from there.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shift_starts', (t) => {
    t.text('shift_key').primary();
    t.integer('team_id').notNullable();
    // No foreign key: the announcement outlives a deleted schedule.
    t.uuid('schedule_id').notNullable();
    t.text('shift_id').notNullable();
    t.integer('user_id');
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.boolean('late').notNullable();
    t.timestamp('emitted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Pruning removes keys older than any window the scheduler still looks at.
    t.index(['starts_at']);
  });
  await knex.schema.createTable('shift_scheduler_state', (t) => {
    t.text('name').primary();
    t.timestamp('checked_until', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('shift_scheduler_state');
  await knex.schema.dropTable('shift_starts');
}
