import type { Knex } from 'knex';

/** Communications types and stages (docs/communications.md): a team's vocabulary that templates refer to. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  for (const table of ['communications_types', 'communications_stages']) {
    await knex.schema.createTable(table, (t) => {
      t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
      t.integer('team_id').notNullable();
      t.text('name').notNullable();
      t.text('slug').notNullable();
      t.text('description');
      if (table === 'communications_types') t.text('color');
      // The reference answers an integer position on every record; creates fill the next one.
      t.integer('position').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['team_id', 'slug']);
      t.index(['team_id', 'position']);
    });
    // Names are unique per team regardless of case, as environments' are.
    await knex.raw(`CREATE UNIQUE INDEX ${table}_team_id_name_unique ON ${table} (team_id, lower(name))`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('communications_stages');
  await knex.schema.dropTable('communications_types');
}
