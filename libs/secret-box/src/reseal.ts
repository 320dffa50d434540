import type { SecretBox } from './secret-box.js';

/** One stored sealed value. */
export interface SealedValue {
  id: string;
  sealed: string;
}

/**
 * Where sealed values are kept: read in pages by id, and replaced only when unchanged
 * since they were read, so a re-seal never undoes a concurrent write.
 */
export interface SealedValues {
  /** Up to `limit` values with an id after `afterId`, in id order, not sealed with the key `keyId`. */
  notSealedWith(keyId: string, afterId: string | null, limit: number): Promise<SealedValue[]>;
  /** Writes `to` where the value is still `from`; false when it changed meanwhile. */
  replace(id: string, from: string, to: string): Promise<boolean>;
}

/** What a re-seal did. */
export interface ResealReport {
  resealed: number;
  /** Values sealed with a key that is not configured: their key ids, by value id. */
  unreadable: { id: string; keyId: string }[];
}

/**
 * Re-seals, with the sealing key, every value sealed with another key: the second half of
 * a key rotation (put the new key first, restart, then remove the old key once this has
 * run). Values whose key is not configured are reported, not touched.
 */
export async function resealStale(box: SecretBox, values: SealedValues, batch = 100): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, unreadable: [] };
  let afterId: string | null = null;
  for (;;) {
    const page = await values.notSealedWith(box.sealingKeyId, afterId, batch);
    for (const value of page) {
      let plain: string;
      try {
        plain = box.open(value.sealed);
      } catch {
        report.unreadable.push({ id: value.id, keyId: box.keyIdOf(value.sealed) });
        continue;
      }
      if (await values.replace(value.id, value.sealed, box.seal(plain))) report.resealed += 1;
    }
    if (page.length < batch) return report;
    afterId = page[page.length - 1].id;
  }
}

/** The part of a logger a background re-seal writes to. */
export interface ResealLog {
  info(message: string, meta: Record<string, unknown>): void;
  error(message: string, meta: Record<string, unknown>): void;
}

/**
 * Runs {@link resealStale} at a service's start without holding up the start, and logs
 * what it did; values whose key is missing from `setting` are an error naming the key ids
 * (never the values). Resolves when done; never rejects.
 */
export async function resealInBackground(
  box: SecretBox,
  values: SealedValues,
  log: ResealLog,
  names: { what: string; setting: string },
): Promise<void> {
  try {
    const { resealed, unreadable } = await resealStale(box, values);
    if (resealed) log.info(`re-sealed ${names.what} with the sealing key`, { count: resealed, key_id: box.sealingKeyId });
    if (unreadable.length) {
      log.error(`${names.what} sealed with a key missing from ${names.setting}`, {
        count: unreadable.length,
        key_ids: [...new Set(unreadable.map((u) => u.keyId))],
      });
    }
  } catch (err) {
    log.error(`re-sealing ${names.what} failed; it runs again at the next start`, {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
