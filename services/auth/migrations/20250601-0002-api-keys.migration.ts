import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

const ROLES = ['admin', 'user', 'observer'];
const KINDS = ['global', 'group', 'personal', 'record'];

/** API keys: only hashes are stored; `prefix` is the public half used for lookup. */
export const apiKeysMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.createTable('api_keys', (t) => {
      t.uuid('id').primary();
      t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
      // The creator, or the user a personal key acts as. A personal key whose user is
      // gone keeps a null here and no longer resolves.
      t.integer('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
      t.text('name').notNullable();
      t.text('description').nullable();
      t.enu('kind', KINDS).notNullable();
      // Null for personal keys: they act with their user's current roles.
      t.enu('role', ROLES).nullable();
      t.enu('on_call_role', ROLES).nullable();
      t.specificType('capabilities', 'text[]').notNullable();
      t.specificType('group_ids', 'text[]').nullable();
      t.specificType('record_ids', 'text[]').nullable();
      t.text('prefix').notNullable().unique({ indexName: 'api_keys_prefix_unique' });
      t.text('token_hash').notNullable();
      t.text('previous_prefix').nullable();
      t.text('previous_token_hash').nullable();
      t.timestamp('grace_period_ends_at', { useTz: true }).nullable();
      t.timestamp('expires_at', { useTz: true }).nullable();
      t.timestamp('last_used_at', { useTz: true }).nullable();
      t.integer('rate_limit_read').nullable();
      t.integer('rate_limit_write').nullable();
      t.timestamp('revoked_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    // The resolve path looks a token up by the prefix it carries, current or previous.
    await knex.raw('CREATE UNIQUE INDEX api_keys_previous_prefix_unique ON api_keys (previous_prefix) WHERE previous_prefix IS NOT NULL');
    await knex.raw('CREATE INDEX api_keys_team_listing ON api_keys (team_id, created_at) WHERE revoked_at IS NULL');
    await knex.raw(
      `ALTER TABLE api_keys ADD CONSTRAINT api_keys_team_wide_has_roles
         CHECK (kind = 'personal' OR (role IS NOT NULL AND on_call_role IS NOT NULL))`,
    );
  },
  async down(knex: Knex) {
    await knex.schema.dropTableIfExists('api_keys');
  },
};
