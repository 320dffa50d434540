import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { IDEMPOTENCY_TABLE } from './idempotency.migration.js';

/** How long a first answer is kept: 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * After this long without an answer, a run counts as abandoned (its process died) and
 * the key may be taken over. Longer than any request may take.
 */
export const IDEMPOTENCY_ABANDONED_SECONDS = 60;

/** Expired rows deleted per claimed key, so the purge never holds up a request for long. */
const PURGE_BATCH = 100;

/** A first answer as kept: status, the headers that matter, and the body (null when not kept). */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** What a claim found: the key is ours to run, or another run holds it or answered it. */
export type Claim =
  | { kind: 'claimed'; claim: string }
  | { kind: 'in_progress'; fingerprint: string }
  | { kind: 'answered'; fingerprint: string; answer: StoredAnswer };

interface Row {
  fingerprint: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/** The `idempotency_keys` table of one service's database. */
export interface IdempotencyStore {
  /** Takes the key for a new run, or says who holds it. Expired and abandoned rows are taken over. */
  claim(scope: string, key: string, fingerprint: string): Promise<Claim>;
  /** Keeps the answer of a run that still owns its claim. */
  complete(scope: string, key: string, claim: string, answer: StoredAnswer): Promise<void>;
  /** Frees the key (the run failed on the server's side): a retry runs again. */
  release(scope: string, key: string, claim: string): Promise<void>;
}

export function createIdempotencyStore(knex: Knex): IdempotencyStore {
  const table = () => knex(IDEMPOTENCY_TABLE);

  async function purgeExpired(): Promise<void> {
    await knex.raw(
      `DELETE FROM ${IDEMPOTENCY_TABLE} WHERE ctid IN (
         SELECT ctid FROM ${IDEMPOTENCY_TABLE} WHERE created_at < now() - make_interval(secs => ?) LIMIT ?)`,
      [IDEMPOTENCY_TTL_SECONDS, PURGE_BATCH],
    );
  }

  async function tryClaim(scope: string, key: string, fingerprint: string): Promise<string | null> {
    const claim = randomUUID();
    const { rows } = await knex.raw<{ rows: unknown[] }>(
      `INSERT INTO ${IDEMPOTENCY_TABLE} (scope, key, fingerprint, claim) VALUES (?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, claim = excluded.claim, created_at = now(), status = NULL, headers = NULL, body = NULL
         WHERE ${IDEMPOTENCY_TABLE}.created_at < now() - make_interval(secs => ?)
            OR (${IDEMPOTENCY_TABLE}.status IS NULL AND ${IDEMPOTENCY_TABLE}.created_at < now() - make_interval(secs => ?))
       RETURNING claim`,
      [scope, key, fingerprint, claim, IDEMPOTENCY_TTL_SECONDS, IDEMPOTENCY_ABANDONED_SECONDS],
    );
    return rows.length ? claim : null;
  }

  return {
    async claim(scope, key, fingerprint) {
      // Housekeeping before the claim: were it to fail after, the key would stay in progress
      // (409) for a request that never ran.
      await purgeExpired();
      // A row can vanish between the failed insert and the read (its run failed and was
      // released); then the insert is tried again.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const claim = await tryClaim(scope, key, fingerprint);
        if (claim) return { kind: 'claimed', claim };
        const row = await table().where({ scope, key }).first<Row | undefined>('fingerprint', 'status', 'headers', 'body');
        if (!row) continue;
        if (row.status === null) return { kind: 'in_progress', fingerprint: row.fingerprint };
        return {
          kind: 'answered',
          fingerprint: row.fingerprint,
          answer: { status: row.status, headers: row.headers ?? {}, body: row.body },
        };
      }
      return { kind: 'in_progress', fingerprint };
    },
    async complete(scope, key, claim, answer) {
      await table().where({ scope, key, claim }).update({ status: answer.status, headers: answer.headers, body: answer.body });
    },
    async release(scope, key, claim) {
      await table().where({ scope, key, claim }).delete();
    },
  };
}
