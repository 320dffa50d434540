import type { Knex } from 'knex';

const TABLES = ['user_email_addresses', 'user_phone_numbers'];

/**
 * A contact method's `primary` is computed, not stored (domain/contacts/contact-methods.rules.ts:
 * a user's oldest is their primary one). The `primary` columns of 20261125-0300 were never
 * set by the API, and paging reading them could send a page elsewhere than the address the
 * user sees marked primary: nothing reads them now, and they go.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.dropColumn('primary'));
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.boolean('primary').notNullable().defaultTo(false));
}
