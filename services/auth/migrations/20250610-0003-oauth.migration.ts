import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * The OAuth server's state: node-oidc-provider's models (tokens, codes, grants,
 * sessions, interactions, dynamically registered clients) in one table keyed by
 * (model, id); the team each client is bound to (docs/api-contract.md §3.4); and the
 * client-credentials applications team admins create.
 */
export const oauthMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.createTable('oidc_payloads', (t) => {
      t.text('model').notNullable();
      t.text('id').notNullable();
      t.jsonb('payload').notNullable();
      t.text('grant_id').nullable();
      t.text('uid').nullable();
      t.text('user_code').nullable();
      t.timestamp('expires_at', { useTz: true }).nullable();
      t.timestamp('consumed_at', { useTz: true }).nullable();
      t.primary(['model', 'id']);
    });
    await knex.raw('CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL');
    await knex.raw('CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid) WHERE uid IS NOT NULL');
    await knex.raw('CREATE INDEX oidc_payloads_user_code ON oidc_payloads (user_code) WHERE user_code IS NOT NULL');
    await knex.raw('CREATE INDEX oidc_payloads_expiry ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL');

    await knex.schema.createTable('oauth_client_teams', (t) => {
      t.text('client_id').primary();
      t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
      t.integer('bound_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('bound_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await knex.schema.createTable('oauth_applications', (t) => {
      t.uuid('id').primary();
      t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
      t.text('client_id').notNullable().unique({ indexName: 'oauth_applications_client_unique' });
      t.text('name').notNullable();
      t.text('description').nullable();
      t.specificType('scopes', 'text[]').notNullable();
      t.integer('service_user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.integer('created_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('revoked_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.raw('CREATE INDEX oauth_applications_team ON oauth_applications (team_id, created_at) WHERE revoked_at IS NULL');
  },
  async down(knex: Knex) {
    await knex.schema.dropTableIfExists('oauth_applications');
    await knex.schema.dropTableIfExists('oauth_client_teams');
    await knex.schema.dropTableIfExists('oidc_payloads');
  },
};
