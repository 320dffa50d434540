import { z } from 'zod';
import { defineResource, SLUG_PATTERN } from '@firewatch/resource-kit';

/** The reference's built-in forms; any other entry names a custom form by its slug. */
export const BUILT_IN_FORMS = [
  'web_new_incident_form',
  'web_update_incident_form',
  'web_incident_post_mortem_form',
  'web_incident_mitigation_form',
  'web_incident_resolution_form',
  'web_incident_cancellation_form',
  'web_scheduled_incident_form',
  'web_update_scheduled_incident_form',
  'slack_new_incident_form',
  'slack_update_incident_form',
  'slack_update_incident_status_form',
  'slack_incident_mitigation_form',
  'slack_incident_resolution_form',
  'slack_incident_cancellation_form',
  'slack_scheduled_incident_form',
  'slack_update_scheduled_incident_form',
  'google_chat_new_incident_form',
  'google_chat_update_incident_form',
] as const;

const forms = z
  .array(z.string().min(1).max(255).regex(SLUG_PATTERN, 'must be a built-in form or a custom form slug (a-z, 0-9, - and _)'))
  .max(100)
  .refine((fs) => new Set(fs).size === fs.length, 'lists a form more than once');

const writable = {
  name: z.string().trim().min(1).max(255),
  forms,
};

/**
 * Form sets (docs/api-contract.md §1): which forms a team's incidents use. `{id}` is the UUID or
 * the slug (from the name). `is_default` is read-only: the reference's default set is
 * one it makes itself, and no set made here is it.
 */
export const formSets = defineResource({
  type: 'form_sets',
  path: '/v1/form_sets',
  table: 'form_sets',
  event: 'form_set',
  permission: { scope: 'ir.form_fields', side: 'ir' },
  cascades: [{ resource: 'form_set_conditions', column: 'form_set_id' }],
  summary: { singular: 'form set', plural: 'form sets' },
  create: z.strictObject(writable),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'is_default', 'forms'],
  attributeSchemas: {
    slug: { type: 'string' },
    is_default: { type: 'boolean', description: 'Read-only; false for every set made through the API.' },
  },
  jsonColumns: ['forms'],
  slug: { from: 'name' },
  filters: { slug: 'string', name: 'string', is_default: 'boolean', created_at: 'date' },
  sorts: ['name', 'slug', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  unique: {
    form_sets_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'A form set with this name already exists.' },
  },
  hooks: {
    defaults: (attributes) => ({ ...attributes, is_default: false }),
  },
});
