import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { CommunicationsDeps } from '../communications.deps.js';
import { fields, inUse, listFilters, listSorts } from '../communications.fields.js';

const writable = { name: fields.name, description: fields.description, color: fields.color, position: fields.position };

/**
 * Communications types (docs/communications.md), e.g. "Status update": what a
 * template is for. `{id}` is the UUID or the slug. A type that templates use cannot be
 * deleted (422 naming them).
 */
export const communicationsTypes = defineResource<CommunicationsDeps>({
  type: 'communications_types',
  path: '/v1/communications/types',
  table: 'communications_types',
  event: 'communications_type',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'communications type', plural: 'communications types' },
  // name and color are required; color may be null (the reference).
  create: z.strictObject(writable).partial().required({ name: true, color: true }),
  // PATCH also takes slug, as the reference's does (docs/communications.md).
  update: z.strictObject({ ...writable, slug: fields.slug }).partial(),
  attributes: ['name', 'slug', 'description', 'color', 'position'],
  attributeSchemas: { slug: { type: 'string' }, position: { type: 'integer' } },
  slug: { from: 'name' },
  limit: { max: 500, detail: 'A team may have at most {max} communications types.' },
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
    communications_types_team_id_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'A communications type with this name already exists.',
    },
  },
  hooks: {
    async beforeRemove(ctx) {
      return inUse(
        'communications type',
        await ctx.deps.communications.templates.ofType(ctx.tx, ctx.principal.team_id, String(ctx.existing!.id)),
      );
    },
  },
});
