import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { CommunicationsDeps } from '../communications.deps.js';
import { fields, inUse, listFilters, listSorts } from '../communications.fields.js';

const writable = { name: fields.name, description: fields.description, position: fields.position };

/**
 * Communications stages (the reference's communications_stages), e.g. "Investigating",
 * "Resolved": the moments of an incident a template has content for. `{id}` is the UUID
 * or the slug. A stage that templates use cannot be deleted (422 naming them).
 */
export const communicationsStages = defineResource<CommunicationsDeps>({
  type: 'communications_stages',
  path: '/v1/communications/stages',
  table: 'communications_stages',
  event: 'communications_stage',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'communications stage', plural: 'communications stages' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'description', 'position'],
  attributeSchemas: { slug: { type: 'string' }, position: { type: 'integer' } },
  slug: { from: 'name' },
  limit: { max: 500, detail: 'A team may have at most {max} communications stages.' },
  filters: listFilters,
  sorts: listSorts,
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // Left out, or set to null, a position puts the record last.
  position: {},
  updateMethods: ['patch'],
  unique: {
    communications_stages_team_id_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'A communications stage with this name already exists.',
    },
  },
  hooks: {
    async beforeRemove(ctx) {
      return inUse(
        'communications stage',
        await ctx.deps.communications.templates.ofStage(ctx.tx, ctx.principal.team_id, String(ctx.existing!.id)),
      );
    },
  },
});
