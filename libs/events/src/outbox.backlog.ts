import type { Knex } from 'knex';
import { OUTBOX_TABLE } from './outbox.migration.js';

/** Rows counted at most: past this the backlog is reported as this, so a scrape stays cheap during a long outage. */
export const OUTBOX_BACKLOG_CAP = 100_000;

/** The events of a service's outbox not yet published. */
export interface OutboxBacklog {
  /** How many (at most {@link OUTBOX_BACKLOG_CAP}). */
  events: number;
  /** Age in seconds of the first written of them; null when there is none. */
  oldestAgeSeconds: number | null;
}

/**
 * The outbox's backlog, for metrics: a capped count, and the age of the lowest `seq` (the
 * first written, found through the primary key). Normally the table holds a few rows, as
 * the relay deletes what the broker confirmed.
 */
export async function outboxBacklog(knex: Knex): Promise<OutboxBacklog> {
  const { rows } = await knex.raw<{ rows: { events: string; oldest_age: string | null }[] }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${OUTBOX_TABLE} LIMIT ?) capped) AS events,
            (SELECT extract(epoch FROM now() - created_at) FROM ${OUTBOX_TABLE} ORDER BY seq LIMIT 1) AS oldest_age`,
    [OUTBOX_BACKLOG_CAP],
  );
  const row = rows[0]!;
  return { events: Number(row.events), oldestAgeSeconds: row.oldest_age === null ? null : Math.max(0, Number(row.oldest_age)) };
}
