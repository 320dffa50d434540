import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * A counter raised by every change of a user, carried by its `user.*` events: other
 * services' read models keep the highest version they applied and ignore older or
 * repeated events, which RabbitMQ may deliver out of order or twice. Row locks order
 * the increments in commit order, which `updated_at` (transaction start) does not.
 */
export const usersVersionMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.alterTable('users', (t) => {
      t.integer('version').notNullable().defaultTo(1);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('users', (t) => {
      t.dropColumn('version');
    });
  },
};
