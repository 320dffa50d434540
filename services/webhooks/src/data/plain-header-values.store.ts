import type { Knex } from 'knex';
import type { PlainHeaderValuesStore, StoredCustomHeader } from '../domain/endpoints/custom-header-values.js';

const BATCH = 200;

/**
 * Endpoints whose `custom_headers` still hold a plain value, for `sealPlainHeaderValues`.
 * Rows are locked while rewritten, so replicas starting together and API writes in
 * flight never lose a value; PostgreSQL re-checks the condition on a row another
 * transaction changed, so no row is sealed twice.
 */
export function createPlainHeaderValuesStore(knex: Knex): PlainHeaderValuesStore {
  return {
    async rewrite(rewrite) {
      let passed = 0;
      for (;;) {
        const done = await knex.transaction(async (trx) => {
          const rows = (await trx('webhooks_endpoints')
            .whereRaw(`jsonb_path_exists(custom_headers, '$[*].value')`) // only plain entries have a value
            .orderBy('id')
            .limit(BATCH)
            .forUpdate()
            .select('id', 'custom_headers')) as { id: string; custom_headers: StoredCustomHeader[] }[];
          for (const row of rows) {
            const rewritten = rewrite(row.custom_headers);
            if (rewritten)
              await trx('webhooks_endpoints')
                .where({ id: row.id })
                .update({ custom_headers: JSON.stringify(rewritten) });
          }
          return rows.length;
        });
        passed += done;
        if (done < BATCH) return passed;
      }
    },
  };
}
