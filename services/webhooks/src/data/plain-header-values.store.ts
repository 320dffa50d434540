import type { Knex } from 'knex';
import { hasPlainValues, sealPlainValues, type StoredCustomHeader } from '../domain/custom-header-values.js';
import type { SecretBox } from '@firewatch/secret-box';

const BATCH = 200;

/**
 * Seals custom header values stored in clear before values were encrypted. A SQL
 * migration cannot do it (the key is not in the database), so both processes call this
 * at start-up, after the migrations. Rows are locked while rewritten, so replicas
 * starting together and API writes in flight never lose a value; PostgreSQL re-checks
 * the condition on a row another transaction changed, so no row is sealed twice. Until
 * a row is converted its plain values are still masked in reads and sent as they are.
 *
 * @returns how many endpoints were converted.
 */
export async function sealPlainHeaderValues(knex: Knex, box: SecretBox): Promise<number> {
  let converted = 0;
  for (;;) {
    const done = await knex.transaction(async (trx) => {
      const rows = (await trx('webhooks_endpoints')
        .whereRaw(`jsonb_path_exists(custom_headers, '$[*].value')`) // only plain entries have a value
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .select('id', 'custom_headers')) as { id: string; custom_headers: StoredCustomHeader[] }[];
      for (const row of rows) {
        if (!hasPlainValues(row.custom_headers)) continue;
        await trx('webhooks_endpoints').where({ id: row.id })
          .update({ custom_headers: JSON.stringify(sealPlainValues(row.custom_headers, box)) });
      }
      return rows.length;
    });
    converted += done;
    if (done < BATCH) return converted;
  }
}
