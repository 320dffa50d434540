import type { Knex } from 'knex';

/**
 * Indexes on the columns a cascading delete looks rows up by: without them, deleting one
 * dashboard, form set, incident event or service scans the whole child table (a
 * bulk_delete of 100 services, 100 scans). The team-led indexes serve lists, not these.
 */
const INDEXES: [table: string, column: string][] = [
  ['dashboard_panels', 'dashboard_id'],
  ['dashboard_defaults', 'dashboard_id'],
  ['authorizations', 'authorizable_id'],
  ['form_set_conditions', 'form_set_id'],
  ['incident_events', 'incident_id'],
  ['incident_event_services', 'service_id'],
  ['incident_event_services', 'incident_event_id'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, column] of INDEXES)
    await knex.raw('CREATE INDEX IF NOT EXISTS ?? ON ?? (??)', [`${table}_${column}_index`, table, column]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of INDEXES) await knex.raw('DROP INDEX IF EXISTS ??', [`${table}_${column}_index`]);
}
