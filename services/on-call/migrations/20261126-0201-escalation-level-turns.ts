import type { Knex } from 'knex';

/**
 * The turn of each escalation level whose paging strategy is `cycle`: the level pages the
 * next of its people each time (docs/paging.md, "Who is paged, and who is on call"). The
 * counter moves in the paging transaction, so two alerts paging the level at once take
 * two turns (the row lock orders them). Removed with the level.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('escalation_level_turns', (t) => {
    t.uuid('escalation_level_id').primary().references('id').inTable('escalation_levels').onDelete('CASCADE');
    t.integer('team_id').notNullable();
    t.bigInteger('turn').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('escalation_level_turns');
}
