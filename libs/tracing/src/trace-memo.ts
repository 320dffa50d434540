import { currentTraceparent } from './spans.js';

/**
 * Remembers the active `traceparent` under a key, for work that continues later in the
 * same process without a place to carry it (the dispatcher's deliveries, sent after the
 * event was stored). Bounded: the oldest keys are forgotten first, and a forgotten or
 * restarted one starts a new trace. Remembers nothing while tracing is off.
 */
export function createTraceMemo(max = 10_000) {
  const parents = new Map<string, string>();
  return {
    remember(key: string): void {
      const traceparent = currentTraceparent();
      if (!traceparent) return;
      parents.delete(key);
      parents.set(key, traceparent);
      if (parents.size > max) parents.delete(parents.keys().next().value!);
    },
    /** The remembered `traceparent`, or null (a new trace) when none is. */
    parentOf(key: string): string | null {
      return parents.get(key) ?? null;
    },
  };
}
