import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('incident_event_services', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('incident_event_id').notNullable().references('id').inTable('incident_events').onDelete('CASCADE');
    // A service's status on an event means nothing once the service is gone.
    t.uuid('service_id').notNullable().references('id').inTable('services').onDelete('CASCADE');
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['team_id', 'incident_event_id']);
  });
  await knex.raw(
    'CREATE UNIQUE INDEX incident_event_services_incident_event_id_service_id_unique ON incident_event_services (incident_event_id, service_id)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('incident_event_services');
}
