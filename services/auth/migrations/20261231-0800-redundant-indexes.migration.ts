import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * Drops `groups_team_id_position`, which `groups_list_order_index` (team_id, position,
 * created_at, id; `20261230_0500`) leads with: the longer index serves every read the
 * shorter did, and each group insert wrote both (test/redundant-indexes.test.ts).
 */
export const redundantIndexesMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw('DROP INDEX IF EXISTS groups_team_id_position');
  },
  async down(knex: Knex) {
    await knex.raw('CREATE INDEX IF NOT EXISTS groups_team_id_position ON groups (team_id, "position")');
  },
};
