import type { Knex } from 'knex';

/** Columns services and functionalities share (the reference's schemas, `chat_*` for `slack_*`). */
function catalogEntityColumns(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.integer('team_id').notNullable();
  t.text('name').notNullable();
  t.text('slug').notNullable();
  // Provenance (read-only in the API); everything written through the API so far is `api`.
  t.text('managed_by').notNullable().defaultTo('api');
  for (const column of [
    'description',
    'public_description',
    'color',
    'external_id',
    'backstage_id',
    'pagerduty_id',
    'opsgenie_id',
    'opsgenie_team_id',
    'cortex_id',
    'opslevel_id',
    'service_now_ci_sys_id',
    'escalation_policy_id',
  ])
    t.text(column);
  t.integer('position');
  t.boolean('show_uptime');
  t.integer('show_uptime_last_days');
  for (const column of [
    'notify_emails',
    'environment_ids',
    'service_ids',
    'owner_group_ids',
    'owner_user_ids',
    'chat_channels',
    'chat_aliases',
    'properties',
  ])
    t.jsonb(column).notNullable().defaultTo('[]');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.unique(['team_id', 'slug']);
  t.index(['team_id', 'position']);
}

/** Names unique per team regardless of case, and external_id (the bulk upsert key) unique per team. */
async function uniqueKeys(knex: Knex, table: string): Promise<void> {
  await knex.raw(`CREATE UNIQUE INDEX ${table}_team_id_name_unique ON ${table} (team_id, lower(name))`);
  await knex.raw(
    `CREATE UNIQUE INDEX ${table}_team_id_external_id_unique ON ${table} (team_id, external_id) WHERE external_id IS NOT NULL`,
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('services', (t) => {
    catalogEntityColumns(knex, t);
    for (const column of [
      'github_repository_name',
      'github_repository_branch',
      'gitlab_repository_name',
      'gitlab_repository_branch',
      'kubernetes_deployment_name',
      'alert_urgency_id',
    ])
      t.text(column);
    t.boolean('alerts_email_enabled');
    t.boolean('alert_broadcast_enabled');
    t.jsonb('alert_broadcast_channel');
    t.boolean('incident_broadcast_enabled');
    t.jsonb('incident_broadcast_channel');
  });
  await uniqueKeys(knex, 'services');
  await knex.schema.createTable('functionalities', (t) => catalogEntityColumns(knex, t));
  await uniqueKeys(knex, 'functionalities');
  // Environments join the bulk upsert: they gain its key and the provenance bulk_delete prunes by.
  await knex.schema.alterTable('environments', (t) => t.text('managed_by').notNullable().defaultTo('api'));
  await knex.raw(
    'CREATE UNIQUE INDEX environments_team_id_external_id_unique ON environments (team_id, external_id) WHERE external_id IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX environments_team_id_external_id_unique');
  await knex.schema.alterTable('environments', (t) => t.dropColumn('managed_by'));
  await knex.schema.dropTable('functionalities');
  await knex.schema.dropTable('services');
}
