import type { Knex } from 'knex';
import type { SealedValues } from './reseal.js';

/**
 * The sealed values of one text column (`v1:<key id>:...`) of a table with a uuid `id`.
 * A re-seal does not touch `updated_at`: the value the record holds is the same.
 */
export function sealedColumn(knex: Knex, table: string, column: string): SealedValues {
  return {
    async notSealedWith(keyId, afterId, limit) {
      const q = knex(table).select({ id: 'id', sealed: column }).whereNot(column, 'like', `v1:${keyId}:%`).orderBy('id').limit(limit);
      if (afterId !== null) q.where('id', '>', afterId);
      return (await q) as { id: string; sealed: string }[];
    },
    async replace(id, from, to) {
      return (
        (await knex(table)
          .where({ id, [column]: from })
          .update({ [column]: to })) === 1
      );
    },
  };
}
