import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()')); // the webhook-id header
    // Order of intake: deliveries of one endpoint are sent in seq order.
    t.bigIncrements('seq', { primaryKey: false });
    t.integer('team_id').notNullable();
    t.uuid('endpoint_id').notNullable().references('id').inTable('webhooks_endpoints').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.text('event_type').notNullable();
    t.text('payload').notNullable(); // the exact body, signed and sent byte for byte on every attempt
    t.text('status').notNullable().defaultTo('pending'); // pending | delivered | failed
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.integer('failures').notNullable().defaultTo(0); // consecutive failures on the current retry ladder
    t.timestamp('next_attempt_at', { useTz: true }); // null once delivered or given up
    t.timestamp('leased_until', { useTz: true }); // a dispatcher is sending it until then
    t.uuid('lease_token');
    t.text('next_trigger').notNullable().defaultTo('scheduled'); // manual after POST .../deliver
    t.timestamp('delivered_at', { useTz: true });
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Broker redeliveries of an event never make a second delivery.
    t.unique(['endpoint_id', 'event_id']);
    t.index(['endpoint_id', 'created_at']);
  });
  await knex.raw('CREATE INDEX webhooks_deliveries_due ON webhooks_deliveries (seq) WHERE next_attempt_at IS NOT NULL');
  await knex.raw('CREATE INDEX webhooks_deliveries_leased ON webhooks_deliveries (endpoint_id) WHERE leased_until IS NOT NULL');

  await knex.schema.createTable('webhooks_delivery_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('delivery_id').notNullable().references('id').inTable('webhooks_deliveries').onDelete('CASCADE');
    t.integer('attempt_number').notNullable();
    t.text('trigger').notNullable(); // scheduled | manual
    t.text('url').notNullable();
    t.integer('status_code'); // null when no response came (timeout, refused address, connection error)
    t.integer('duration_ms').notNullable();
    t.text('response_body');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['delivery_id', 'attempt_number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhooks_delivery_attempts');
  await knex.schema.dropTable('webhooks_deliveries');
}
