/** The header on-call answers an authenticated ingestion request with: the source's own limit, payloads per minute. */
export const INGEST_LIMIT_HEADER = 'x-firewatch-ingest-limit';

const MAX_SOURCES = 10_000;

/**
 * The per-source ingestion limits the gateway has learnt (docs/on-call.md, "Ingestion
 * rate limit"): the gateway holds no source records, so on-call tells it each source's
 * `rate_limit_per_minute` on every answer to an authenticated payload, and the next
 * payload of that source is counted against it. Until then, and for a source with none,
 * the deployment's default applies. Bounded: the least recently told source is forgotten
 * first (it falls back to the default until its next answer).
 */
export function createIngestLimits(options: { defaultLimit: number; windowSeconds: number }) {
  const perWindow = new Map<string, number>();
  return {
    /** Payloads `sourceId` may post per window. */
    limitOf: (sourceId: string): number => perWindow.get(sourceId) ?? options.defaultLimit,
    /** What on-call's answer said of the source: its header's value, or none (the default). */
    learn(sourceId: string, header: string | string[] | undefined): void {
      const perMinute = typeof header === 'string' && /^\d{1,7}$/.test(header) ? Number(header) : 0;
      perWindow.delete(sourceId);
      if (perMinute < 1) return;
      perWindow.set(sourceId, Math.max(1, Math.round((perMinute * options.windowSeconds) / 60)));
      if (perWindow.size > MAX_SOURCES) perWindow.delete(perWindow.keys().next().value as string);
    },
  };
}

export type IngestLimits = ReturnType<typeof createIngestLimits>;
