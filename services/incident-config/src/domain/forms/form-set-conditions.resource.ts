import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';

const writable = {
  form_field_id: z.string().trim().min(1).max(255),
  // The reference's one comparison.
  comparison: z.enum(['equal']),
  values: z.array(z.string().max(1_000)).max(100),
};

/**
 * Form set conditions (docs/api-contract.md §1): when a form set applies, by the values
 * of a form field. Created and listed under their form set
 * (`/v1/form_sets/{form_set_id}/conditions`, the set by UUID or slug; another team's is a
 * 404), read and changed at `/v1/form_set_conditions/{id}`; they go with their set.
 * Form fields are not served here, so `form_field_id` is kept as given. Spec 2.14 lists
 * no timestamps, nor does the reference's schema: none are answered.
 */
export const formSetConditions = defineResource({
  type: 'form_set_conditions',
  path: '/v1/form_set_conditions',
  collections: [{ path: '/v1/form_sets/{form_set_id}/conditions' }],
  parent: { resource: 'form_sets', param: 'form_set_id', column: 'form_set_id' },
  table: 'form_set_conditions',
  event: 'form_set_condition',
  permission: { scope: 'ir.form_fields', side: 'ir' },
  summary: { singular: 'form set condition', plural: 'form set conditions' },
  create: z.strictObject(writable),
  update: z.strictObject(writable).partial(),
  attributes: ['form_set_id', 'form_field_id', 'comparison', 'values'],
  attributeSchemas: { form_set_id: { type: 'string', format: 'uuid' } },
  jsonColumns: ['values'],
  timestamps: false,
  relationships: { form_set: { type: 'form_sets', column: 'form_set_id', resource: 'form_sets' } },
  filters: { form_field_id: 'string' },
  sorts: ['created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
});
