import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * The users directory (`/v1/users`, docs/api-contract.md "Users"): the reference's
 * first and last names beside the display name (`name`, the full name), a time zone, the
 * index the list pages by, and one to find a deleted user's OAuth grants, sessions and
 * tokens without reading every payload.
 */
export const usersProfileMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.alterTable('users', (t) => {
      t.text('first_name').nullable();
      t.text('last_name').nullable();
      // An IANA name; the domain checks it (time-zone.rules.ts).
      t.text('time_zone').notNullable().defaultTo('Etc/UTC');
    });
    // People's display names split at the first blank; service users (an application's
    // name) are no person's and keep none.
    await knex.raw(`
      UPDATE users
         SET first_name = substring(btrim(name) from '^\\S+'),
             last_name = nullif(btrim(substring(btrim(name) from '^\\S+\\s+(.*)$')), '')
       WHERE NOT is_service_account`);
    await knex.raw('CREATE INDEX users_team_listing ON users (team_id, created_at, id)');
    await knex.raw(`CREATE INDEX oidc_payloads_account ON oidc_payloads ((payload->>'accountId')) WHERE payload->>'accountId' IS NOT NULL`);
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS oidc_payloads_account');
    await knex.raw('DROP INDEX IF EXISTS users_team_listing');
    await knex.schema.alterTable('users', (t) => {
      t.dropColumn('time_zone');
      t.dropColumn('last_name');
      t.dropColumn('first_name');
    });
  },
};
