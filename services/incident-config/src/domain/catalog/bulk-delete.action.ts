import { z } from 'zod';
import { defineAction } from '@firewatch/resource-kit';
import type { BulkFamily } from './bulk-family.js';

/** Provenances a prune may name; records made in the web app are never pruned (the reference excludes web/admin_web). */
const PRUNABLE = ['api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

const body = z.union([
  z.strictObject({ external_ids: z.array(z.string().min(1).max(255)).min(1).max(100) }),
  z.strictObject({ managed_by: z.enum(PRUNABLE), keep_external_ids: z.array(z.string().max(255)).max(10_000).optional() }),
]);

const ids = { type: 'array', items: { type: 'string' } };

/**
 * `POST /v1/<family>/bulk_delete` (docs/decisions.md, Resources): deletes the named external_ids, or
 * prunes every record of one provenance except those kept, in one transaction, each
 * through the declaration's delete (one `*.deleted` event per record). Only records the
 * caller may see are found: another group's are a group key's `not_found_external_ids`,
 * as the reference has records the caller cannot reach. An external_id held in several
 * owner sets names each record of them the caller sees, and all of those go.
 */
export function bulkDeleteAction(family: BulkFamily) {
  return defineAction({
    name: 'bulk_delete',
    on: 'collection',
    capabilities: ['delete'],
    hiddenFromRecordKeys: true,
    body,
    summary: `Delete ${family.type} by external_id, or prune those of one provenance`,
    response: {
      schema: {
        type: 'object',
        properties: {
          data: { type: 'object', properties: { deleted_external_ids: ids, failed_external_ids: ids, not_found_external_ids: ids } },
        },
      },
    },
    async run({ body: request, resource }) {
      const deleted: string[] = [];
      const notFound: string[] = [];
      if ('external_ids' in request) {
        const rows = await resource.findWhere({ external_id: request.external_ids }, { forUpdate: true });
        for (const externalId of new Set(request.external_ids)) {
          const named = rows.filter((r) => r.external_id === externalId);
          if (!named.length) {
            notFound.push(externalId);
            continue;
          }
          for (const row of named) await resource.remove(row);
          deleted.push(externalId);
        }
      } else {
        const keep = new Set(request.keep_external_ids ?? []);
        // Only records with an external_id are managed from outside, and only they can be reported.
        for (const row of await resource.findWhere({ managed_by: request.managed_by }, { forUpdate: true })) {
          if (typeof row.external_id !== 'string' || keep.has(row.external_id)) continue;
          await resource.remove(row);
          deleted.push(row.external_id);
        }
      }
      // Nothing blocks deleting a catalog record yet, so no external_id can fail.
      return { document: { data: { deleted_external_ids: deleted, failed_external_ids: [], not_found_external_ids: notFound } } };
    },
  });
}
