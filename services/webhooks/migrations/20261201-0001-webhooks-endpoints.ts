import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  await knex.schema.createTable('webhooks_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('url').notNullable();
    t.jsonb('event_types').notNullable().defaultTo('[]');
    // AES-256-GCM ciphertext of the whsec_ secret (docs/design.md, "Sealed secrets"); only
    // the dispatcher decrypts it.
    t.text('secret_ciphertext').notNullable();
    t.text('secret_hint').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.jsonb('custom_headers').notNullable().defaultTo('[]');
    // Dispatcher state: since when every attempt has failed (auto-disable), and why it was disabled.
    t.timestamp('failing_since', { useTz: true });
    t.text('disabled_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
  });
  await knex.raw('CREATE INDEX webhooks_endpoints_team_enabled ON webhooks_endpoints (team_id) WHERE enabled');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhooks_endpoints');
}
