import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';

const VISIBILITIES = ['internal', 'external'] as const;

const writable = {
  event: z.string().trim().min(1).max(10_000),
  visibility: z.enum(VISIBILITIES),
};

/**
 * Incident events (issue 9; the reference's incident_event): an incident's timeline,
 * listed and created under `/v1/incidents/{incident_id}/events` (the incident by UUID or
 * slug, hidden with it) and read, changed and deleted at `/v1/events/{id}`. Entries are
 * in the order they happened.
 */
export const incidentEvents = defineResource({
  type: 'incident_events',
  path: '/v1/events',
  collections: [{ path: '/v1/incidents/{incident_id}/events' }],
  parent: { resource: 'incidents', param: 'incident_id', column: 'incident_id' },
  table: 'incident_events',
  event: 'incident_event',
  permission: { scope: 'ir.incidents', side: 'ir' },
  cascades: [{ resource: 'incident_event_services', column: 'incident_event_id' }],
  summary: { singular: 'incident event', plural: 'incident events' },
  create: z.strictObject(writable).partial().required({ event: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['event', 'visibility', 'occurred_at'],
  attributeSchemas: { occurred_at: { type: 'string', format: 'date-time', description: 'When it happened: its creation.' } },
  sorts: ['occurred_at', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'occurred_at', direction: 'asc' }],
  updateMethods: ['put'],
  hooks: {
    defaults: (attributes) => ({ visibility: 'internal', ...attributes }),
  },
});
