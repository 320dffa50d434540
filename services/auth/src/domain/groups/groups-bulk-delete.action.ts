import { z } from 'zod';
import { defineAction } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from '../auth.deps.js';
import { refuseGroupKeys } from './group-keys.rules.js';
import { MAX_BULK } from './groups-bulk.rules.js';

/** Provenances a prune may name; groups made in the web app are never pruned (the reference excludes web/admin_web). */
const PRUNABLE = ['api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

const body = z.union([
  z.strictObject({ external_ids: z.array(z.string().min(1).max(255)).min(1).max(MAX_BULK) }),
  z.strictObject({ managed_by: z.enum(PRUNABLE), keep_external_ids: z.array(z.string().max(255)).max(10_000).optional() }),
]);

const ids = { type: 'array', items: { type: 'string' } };

/**
 * `POST /v1/teams/bulk_delete` (docs/decisions.md, Groups): deletes the named external_ids,
 * or prunes every group of one provenance except those kept, in one transaction, each
 * through the declaration's delete (its `group.deleted`, and API keys losing the group).
 */
export const bulkDeleteGroupsAction = defineAction<AuthResourceDeps, z.infer<typeof body>>({
  name: 'bulk_delete',
  on: 'collection',
  capabilities: ['delete'],
  hiddenFromRecordKeys: true,
  body,
  summary: 'Delete teams by external_id, or prune those of one provenance',
  response: {
    schema: {
      type: 'object',
      properties: {
        data: { type: 'object', properties: { deleted_external_ids: ids, failed_external_ids: ids, not_found_external_ids: ids } },
      },
    },
  },
  async run({ body: request, resource, principal }) {
    refuseGroupKeys(principal);
    const deleted: string[] = [];
    const notFound: string[] = [];
    if ('external_ids' in request) {
      const rows = await resource.findWhere({ external_id: request.external_ids }, { forUpdate: true });
      for (const externalId of new Set(request.external_ids)) {
        const row = rows.find((r) => r.external_id === externalId);
        if (!row) notFound.push(externalId);
        else {
          await resource.remove(row);
          deleted.push(externalId);
        }
      }
    } else {
      const keep = new Set(request.keep_external_ids ?? []);
      // Only groups with an external_id are managed from outside, and only they can be reported.
      for (const row of await resource.findWhere({ managed_by: request.managed_by }, { forUpdate: true })) {
        if (typeof row.external_id !== 'string' || keep.has(row.external_id)) continue;
        await resource.remove(row);
        deleted.push(row.external_id);
      }
    }
    // Nothing blocks deleting a group (keys lose it), so no external_id can fail.
    return { document: { data: { deleted_external_ids: deleted, failed_external_ids: [], not_found_external_ids: notFound } } };
  },
});
