import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { MAX_POSITION } from './alerts.shared.js';

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000),
  position: z.number().int().min(0).max(MAX_POSITION).nullable(),
};

/**
 * Alert urgencies (the reference's alert_urgencies, docs/on-call.md): the levels an alert
 * can have (high, low, ...). Their ids are what alert group and re-trigger rule
 * conditions name. `position` orders them; left out (or null) it puts the new urgency last.
 */
export const alertUrgencies = defineResource<OnCallResourceDeps>({
  type: 'alert_urgencies',
  path: '/v1/alert_urgencies',
  table: 'alert_urgencies',
  event: 'alert_urgency',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert urgency', plural: 'alert urgencies' },
  create: z.strictObject(writable).partial({ position: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'description', 'position'],
  filters: {
    search: { kind: 'search', columns: ['name', 'description'] },
    name: 'string',
    created_at: 'date',
  },
  sorts: ['name', 'position', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // position is NOT NULL in the response schema: null or absent means "at the end".
  position: { max: MAX_POSITION },
  updateMethods: ['put'],
  unique: {
    alert_urgencies_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An alert urgency with this name already exists.' },
  },
  hooks: {
    // Conditions naming a deleted urgency could never hold again, and echoing them back would be a 422: refuse instead.
    async beforeRemove(ctx) {
      const uses = await ctx.deps.urgencies.uses(ctx.tx, ctx.principal.team_id, String(ctx.existing!.id));
      const named = Object.entries(uses).flatMap(([type, records]) => records.map((r) => `${type} "${r.name}" (${r.id})`));
      if (!named.length) return [];
      return [
        {
          pointer: '/data',
          code: 'in_use',
          detail: `The alert urgency is named in conditions of ${named.slice(0, 10).join(', ')}${named.length > 10 ? ', …' : ''}; change those first.`,
        },
      ];
    },
  },
});
