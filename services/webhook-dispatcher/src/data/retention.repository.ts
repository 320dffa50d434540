import type { Knex } from 'knex';
import { DELIVERIES } from '@firewatch/webhooks/shared';

const BATCH = 1000;

/** Deletes what the retention period no longer covers. */
export interface RetentionRepository {
  /** Deletes deliveries created more than `days` days ago, with their attempts; returns how many. */
  prune(days: number): Promise<number>;
}

/**
 * Deletes in batches of 1,000 (short transactions, no long lock on the table); attempts
 * go with their delivery (ON DELETE CASCADE). Rows another transaction holds are skipped
 * (`SKIP LOCKED`) and a delivery being sent (lease not run out) is kept, so replicas
 * pruning at the same time and the dispatch loop never wait on or fail because of it;
 * what is skipped goes on the next run.
 */
export function createRetentionRepository(knex: Knex): RetentionRepository {
  return {
    async prune(days) {
      let deleted = 0;
      for (;;) {
        const { rowCount } = await knex.raw(
          `DELETE FROM ${DELIVERIES} WHERE id IN (
             SELECT id FROM ${DELIVERIES}
              WHERE created_at < now() - make_interval(days => ?)
                AND (leased_until IS NULL OR leased_until < now())
              ORDER BY created_at
              LIMIT ?
              FOR UPDATE SKIP LOCKED)`,
          [days, BATCH],
        );
        deleted += rowCount ?? 0;
        if ((rowCount ?? 0) < BATCH) return deleted;
      }
    },
  };
}
