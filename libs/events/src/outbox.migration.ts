import type { Knex } from 'knex';

/** Name of the outbox table each service keeps in its own database. */
export const OUTBOX_TABLE = 'outbox';

/** The channel `writeEvent` notifies and the relay listens on. */
export const OUTBOX_CHANNEL = 'firewatch_outbox';

/**
 * Creates the `outbox` table. Each service adds it to its own migration list
 * (e.g. `'20250101_000_outbox': outboxMigration`).
 */
export const outboxMigration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable(OUTBOX_TABLE, (t) => {
      t.bigIncrements('seq').primary();
      t.uuid('id').notNullable().unique();
      t.text('type').notNullable();
      t.integer('team_id').notNullable();
      t.jsonb('payload').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.integer('attempts').notNullable().defaultTo(0);
      t.text('last_error').nullable();
      // Rows that failed to publish are pushed into the future so they stop blocking others.
      t.timestamp('available_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists(OUTBOX_TABLE);
  },
};
