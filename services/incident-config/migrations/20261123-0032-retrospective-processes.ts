import type { Knex } from 'knex';

/** Retrospective processes (docs/api-contract.md §1); at most one default per team, by a partial unique index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('retrospective_processes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('description');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.jsonb('retrospective_process_matching_criteria');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX retrospective_processes_team_id_name_unique ON retrospective_processes (team_id, lower(name))');
  await knex.raw(
    'CREATE UNIQUE INDEX retrospective_processes_team_id_default_unique ON retrospective_processes (team_id) WHERE is_default',
  );
  // The default is the fallback: it never has criteria.
  await knex.raw(`ALTER TABLE retrospective_processes ADD CONSTRAINT retrospective_processes_default_without_criteria
    CHECK (NOT is_default OR retrospective_process_matching_criteria IS NULL)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('retrospective_processes');
}
