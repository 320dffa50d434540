import type { Knex } from 'knex';

/**
 * An action link keeps the channel it was sent on (email, sms, voice), which an action
 * taken through it records as its event's `source` (docs/paging.md, "Notifications").
 * Links made before this were not told apart; they read as email, as they recorded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alert_action_links', (t) => {
    t.text('channel').notNullable().defaultTo('email');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alert_action_links', (t) => {
    t.dropColumn('channel');
  });
}
