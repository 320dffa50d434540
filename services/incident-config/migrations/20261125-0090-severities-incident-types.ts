import type { Knex } from 'knex';

const SEVERITY_LEVELS = ['critical', 'high', 'medium', 'low'];

/** The columns severities and incident types share: the reference's attributes, chat lists under their `chat_*` names. */
function classification(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.integer('team_id').notNullable();
  t.text('name').notNullable();
  t.text('slug').notNullable();
  t.text('description');
  t.text('color');
  t.integer('position');
  t.jsonb('notify_emails').notNullable().defaultTo('[]');
  t.jsonb('chat_channels').notNullable().defaultTo('[]');
  t.jsonb('chat_aliases').notNullable().defaultTo('[]');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.unique(['team_id', 'slug']);
  t.index(['team_id', 'position']);
}

/**
 * Severities and incident types (docs/api-contract.md §1), and the marker that a team's
 * starting severities were made: once per team, so deleting them all does not bring them
 * back. Incidents gain `incident_type_ids`; the indexes serve the in-use checks of a
 * delete, which count the incidents naming a severity or type.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('severities', (t) => {
    classification(knex, t);
    t.text('severity').notNullable().defaultTo('medium');
  });
  await knex.raw(
    `ALTER TABLE severities ADD CONSTRAINT severities_severity_check CHECK (severity IN (${SEVERITY_LEVELS.map((l) => `'${l}'`).join(', ')}))`,
  );
  await knex.raw('CREATE UNIQUE INDEX severities_team_id_name_unique ON severities (team_id, lower(name))');
  await knex.schema.createTable('severity_seeds', (t) => {
    t.integer('team_id').primary();
    t.timestamp('seeded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('incident_types', (t) => {
    classification(knex, t);
    t.jsonb('properties').notNullable().defaultTo('[]');
  });
  await knex.raw('CREATE UNIQUE INDEX incident_types_team_id_name_unique ON incident_types (team_id, lower(name))');
  await knex.schema.alterTable('incidents', (t) => {
    t.jsonb('incident_type_ids').notNullable().defaultTo('[]');
    t.index(['team_id', 'severity_id']);
  });
  await knex.raw('CREATE INDEX incidents_incident_type_ids_index ON incidents USING gin (incident_type_ids jsonb_path_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX incidents_incident_type_ids_index');
  await knex.schema.alterTable('incidents', (t) => {
    t.dropIndex(['team_id', 'severity_id']);
    t.dropColumn('incident_type_ids');
  });
  await knex.schema.dropTable('incident_types');
  await knex.schema.dropTable('severity_seeds');
  await knex.schema.dropTable('severities');
}
