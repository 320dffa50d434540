import type { EventInput } from '@firewatch/events';
import { serialize, type AnyResourceDefinition, type Row } from '@firewatch/resource-kit';
import { functionalities } from './functionalities.resource.js';
import { services } from './services.resource.js';

/** Records per transaction when `announce` re-sends them. */
const ANNOUNCE_BATCH = 500;

/** The declarations whose records other services keep a read model of (on-call's alert group targets). */
const ANNOUNCED: readonly AnyResourceDefinition[] = [services, functionalities];

/** What re-sending the catalog needs from the data layer. */
export interface CatalogAnnounceStore {
  /** Up to `limit` rows of `table` in id order after `afterId`, of one team or of every team. */
  page(table: string, afterId: string | null, limit: number, teamId?: number): Promise<Row[]>;
  /** Records the events in the outbox, in one transaction. */
  write(events: readonly EventInput[]): Promise<void>;
}

/**
 * The backfill of the read models made after the records (docs/on-call.md, "Known
 * targets"): every service and functionality, of one team or all, re-sent unchanged as
 * `<family>.updated` with the resource object a real update carries. Readers keep the
 * newest state by `updated_at`, so what they already hold does not change.
 */
export function createCatalogAnnounce(store: CatalogAnnounceStore) {
  return {
    /** Re-sends the records; how many of each type. */
    async announce(teamId?: number): Promise<Record<string, number>> {
      const announced: Record<string, number> = {};
      for (const def of ANNOUNCED) {
        announced[def.type] = 0;
        for (let after: string | null = null; ;) {
          const rows = await store.page(def.table as string, after, ANNOUNCE_BATCH, teamId);
          if (!rows.length) break;
          await store.write(rows.map((row) => ({ type: `${def.event}.updated`, team_id: Number(row.team_id), data: serialize(def, row) })));
          announced[def.type] += rows.length;
          after = String(rows[rows.length - 1].id);
        }
      }
      return announced;
    },
  };
}

export type CatalogAnnounce = ReturnType<typeof createCatalogAnnounce>;
