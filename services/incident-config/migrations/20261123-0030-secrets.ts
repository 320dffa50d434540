import type { Knex } from 'knex';

/**
 * Secrets (docs/api-contract.md §1): the value is stored sealed only (`secret_ciphertext`, AES-256-GCM
 * with the key id inside), never in clear.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('secrets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('kind').notNullable().defaultTo('built_in');
    t.text('secret_ciphertext').notNullable();
    t.text('external_vault_mount');
    t.text('external_vault_path');
    t.integer('external_vault_version').notNullable().defaultTo(0);
    t.jsonb('owner_group_ids').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'created_at']);
  });
  // Secrets are named in templates by their exact name, so case matters.
  await knex.raw('CREATE UNIQUE INDEX secrets_team_id_name_unique ON secrets (team_id, name)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('secrets');
}
