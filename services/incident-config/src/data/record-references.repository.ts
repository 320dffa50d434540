import type { Knex } from 'knex';
import type { RecordReferences } from '../domain/record-references.js';

/** Reference checks over the caller's transaction. */
export function createRecordReferencesRepository(): RecordReferences {
  return {
    async existingIds(tx: Knex.Transaction, table, teamId, ids) {
      // FOR SHARE: a referenced record deleted meanwhile waits for this transaction to end.
      const found = (await tx(table).where('team_id', teamId).whereIn('id', [...new Set(ids)]).forShare().pluck('id')) as string[];
      return new Set(found);
    },
  };
}
