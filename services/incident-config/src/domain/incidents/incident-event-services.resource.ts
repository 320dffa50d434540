import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';

const STATUSES = ['operational', 'partial_outage', 'major_outage'] as const;
const recordId = z.uuid().transform((id) => id.toLowerCase());

/** The service must be one the caller sees (docs/security.md); the event named in the body must be the path's. */
async function eventServiceIssues(attributes: Row, ctx: HookContext): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  if (ctx.parent && attributes.incident_event_id !== undefined && attributes.incident_event_id !== ctx.parent.id) {
    issues.push({
      pointer: '/data/attributes/incident_event_id',
      code: 'mismatch',
      detail: 'incident_event_id must be the event of the path.',
    });
  }
  if (typeof attributes.service_id === 'string') {
    const found = await ctx.visibleIds('services', [attributes.service_id]);
    if (!found.has(attributes.service_id)) {
      issues.push({
        pointer: '/data/attributes/service_id',
        code: 'invalid_reference',
        detail: `service_id: no services record "${attributes.service_id}".`,
      });
    }
  }
  return issues;
}

/**
 * Incident event services (docs/api-contract.md §1): how a service fared at a point of an
 * incident's timeline. Created and listed under `/v1/events/{incident_event_id}/services`
 * (the event, and through it its incident, must be the caller's: 404 otherwise), read,
 * re-rated and deleted at `/v1/incident_event_services/{id}`. Only `status` changes; any
 * status may follow any other (the reference documents no transitions).
 */
export const incidentEventServices = defineResource({
  type: 'incident_event_services',
  path: '/v1/incident_event_services',
  collections: [{ path: '/v1/events/{incident_event_id}/services' }],
  parent: { resource: 'incident_events', param: 'incident_event_id', column: 'incident_event_id' },
  table: 'incident_event_services',
  event: 'incident_event_service',
  permission: { scope: 'ir.incidents', side: 'ir' },
  summary: { singular: 'incident event service', plural: 'incident event services' },
  // incident_event_id comes from the path; the reference's body also names it, so it is accepted when equal.
  // The specification's create has no status, which the reference requires (docs/decisions.md, Defaults).
  create: z.strictObject({
    incident_event_id: recordId.optional(),
    service_id: recordId,
    status: z.enum(STATUSES).default('operational').describe('Default: `operational`.'),
  }),
  update: z.strictObject({ status: z.enum(STATUSES) }),
  attributes: ['incident_event_id', 'service_id', 'status'],
  // The reference's incident_event_service has no timestamps (and closes its attributes).
  timestamps: false,
  updateMethods: ['put'],
  unique: {
    incident_event_services_incident_event_id_service_id_unique: {
      pointer: '/data/attributes/service_id',
      detail: 'This event already rates this service.',
    },
  },
  hooks: {
    validate: eventServiceIssues,
  },
});
