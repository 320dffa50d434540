import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';

const text = z.string().max(10_000).nullable();

const writable = {
  name: z.string().trim().min(1).max(255),
  summary: text,
  description: text,
  position: z.number().int().min(0).max(1_000_000).nullable(),
  optional: z.boolean(),
  enabled: z.boolean(),
  allow_multi_user_assignment: z.boolean(),
};

/**
 * Incident roles (docs/api-contract.md §1): the roles people take in an incident
 * (commander, scribe, ...). Updated with PUT only, the reference's one update verb; the
 * slug follows from the name (the reference's write schemas have no slug).
 */
export const incidentRoles = defineResource({
  type: 'incident_roles',
  path: '/v1/incident_roles',
  table: 'incident_roles',
  event: 'incident_role',
  permission: { scope: 'ir.incident_roles', side: 'ir' },
  summary: { singular: 'incident role', plural: 'incident roles' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'summary', 'description', 'position', 'optional', 'enabled', 'allow_multi_user_assignment'],
  attributeSchemas: { slug: { type: 'string' } },
  slug: { from: 'name' },
  filters: {
    search: { kind: 'search', columns: ['name', 'summary', 'description'] },
    slug: 'string',
    name: 'string',
    enabled: 'boolean',
    created_at: 'date',
  },
  sorts: ['name', 'slug', 'position', 'enabled', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  updateMethods: ['put'],
  unique: {
    incident_roles_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An incident role with this name already exists.' },
  },
  hooks: {
    defaults: (attributes) => ({ optional: false, enabled: true, allow_multi_user_assignment: false, ...attributes }),
  },
});
