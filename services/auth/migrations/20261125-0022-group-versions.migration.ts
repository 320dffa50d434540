import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * A group's `updated_at` rises with every change, in the order the changes commit:
 * readers of `group.*` events (incident-config's and on-call's groups) keep the newest by
 * it. `now()` would not do: it is when a transaction began, so a writer that began
 * first but waited for the row lock would stamp its later change with an earlier time.
 * The clock is read once the row is locked, and never goes back for one group.
 */
export const groupVersionsMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw(`
      CREATE FUNCTION groups_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.updated_at := greatest(clock_timestamp(), OLD.updated_at + interval '1 microsecond');
        RETURN NEW;
      END $$`);
    await knex.raw('CREATE TRIGGER groups_updated_at BEFORE UPDATE ON groups FOR EACH ROW EXECUTE FUNCTION groups_updated_at()');
  },
  async down(knex: Knex) {
    await knex.raw('DROP TRIGGER IF EXISTS groups_updated_at ON groups');
    await knex.raw('DROP FUNCTION IF EXISTS groups_updated_at()');
  },
};
