import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

const ROLES = ['admin', 'user', 'observer'];

/** Teams (the tenant) and their users. Integer ids, as the specification types them. */
export const teamsUsersMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.createTable('teams', (t) => {
      t.increments('id').primary();
      t.text('name').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.schema.createTable('users', (t) => {
      t.increments('id').primary();
      t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
      t.text('email').notNullable();
      t.text('name').notNullable();
      t.enu('role', ROLES).notNullable();
      t.enu('on_call_role', ROLES).notNullable();
      t.text('password_hash').nullable();
      t.boolean('is_service_account').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['team_id', 'email'], { indexName: 'users_team_email_unique' });
    });
    // Case-insensitive uniqueness is kept by storing emails lower-cased; the check makes
    // a writer that forgets to lower-case fail instead of creating a look-alike account.
    await knex.raw('ALTER TABLE users ADD CONSTRAINT users_email_lower CHECK (email = lower(email))');
  },
  async down(knex: Knex) {
    await knex.schema.dropTableIfExists('users');
    await knex.schema.dropTableIfExists('teams');
  },
};
