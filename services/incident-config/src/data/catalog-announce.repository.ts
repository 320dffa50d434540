import type { Knex } from 'knex';
import { writeEvents } from '@firewatch/events';
import type { CatalogAnnounceStore } from '../domain/catalog/catalog-announce.js';

/** Pages of a catalog table and the outbox, for `announce` (the CLI's backfill). */
export function createCatalogAnnounceStore(knex: Knex): CatalogAnnounceStore {
  return {
    async page(table, afterId, limit, teamId) {
      const q = knex(table).orderBy('id').limit(limit);
      if (afterId !== null) q.where('id', '>', afterId);
      if (teamId !== undefined) q.where({ team_id: teamId });
      return q;
    },
    async write(events) {
      await knex.transaction((tx) => writeEvents(tx, events));
    },
  };
}
