import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * The groups list (`/v1/teams`, the kit's only list here) gets an index in its default
 * order, the id last (the kit's tiebreaker), as incident-config's
 * `20261126-0800-list-order-indexes`: a page reads its rows from the index in order and
 * stops, and a cursor page seeks to its cursor, where `(team_id, position)` left each
 * page sorting the team's groups. test/list-order-indexes.test.ts holds the kit's lists to it.
 */
export const listOrderIndexesMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw('CREATE INDEX IF NOT EXISTS groups_list_order_index ON groups (team_id, position, created_at, id)');
  },
  async down(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS groups_list_order_index');
  },
};
