import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * A group's catalog `properties` (the reference's team `properties`): values of the
 * teams catalog's properties, which incident-config keeps (docs/decisions.md, Teams'
 * properties), stored as `[{catalog_property_id, value}]` on the group row.
 */
export const groupPropertiesMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.alterTable('groups', (t) => {
      t.jsonb('properties').notNullable().defaultTo('[]');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('groups', (t) => {
      t.dropColumn('properties');
    });
  },
};
