import type { Knex } from 'knex';

/** Name of the table each service keeps its idempotency keys in, in its own database. */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/**
 * Creates the `idempotency_keys` table. Each service that serves `/v1` writes adds it to
 * its own migration list (e.g. `'20261125-0000-idempotency-keys': idempotencyMigration`).
 */
export const idempotencyMigration = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable(IDEMPOTENCY_TABLE, (t) => {
      // The credential (team, type, id) the key belongs to: keys of two callers never meet.
      t.text('scope').notNullable();
      t.text('key').notNullable();
      t.primary(['scope', 'key']);
      // sha256 of method, path, query and body: "the same request".
      t.text('fingerprint').notNullable();
      // Which run owns the row, so a run that outlived its claim cannot overwrite a newer one.
      t.uuid('claim').notNullable();
      // When the run began; the row expires 24 h after it, and an unanswered one is abandoned sooner.
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      // Null while the first run is in progress.
      t.integer('status').nullable();
      t.jsonb('headers').nullable();
      // Null with a status: answered, but the answer was not kept (a secret, or too large).
      t.binary('body').nullable();
      t.index(['created_at']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTableIfExists(IDEMPOTENCY_TABLE);
  },
};
