import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * The login form looks users up by email across teams (emails are unique per team only, so
 * the `(team_id, email)` key cannot serve it). Emails are stored lower-cased (constraint
 * `users_email_lower`) and looked up lower-cased, so a plain index on the column matches.
 * Without it every login attempt scanned `users` (docs/oauth.md, "Login throttling").
 */
export const usersEmailIndexMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw('CREATE INDEX IF NOT EXISTS users_email ON users (email)');
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS users_email');
  },
};
