import type { Counter, Histogram } from 'prom-client';

// What prom-client 15 keeps per label set (lib/counter.js, lib/histogram.js): entries of its
// `hashMap`, each holding the labels object it was first given.
interface CounterEntry {
  value: number;
  labels: object;
}
interface HistogramEntry {
  labels: object;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}
interface Stored<E> {
  hashMap: Record<string, E | undefined>;
}

/** The key under which a metric keeps the entry of `labels` (the same names and values), if any. */
function keyOf(hashMap: Record<string, { labels: object } | undefined>, labels: Record<string, unknown>): string | undefined {
  const names = Object.keys(labels);
  for (const key in hashMap) {
    const kept = hashMap[key]?.labels as Record<string, unknown> | undefined;
    if (kept && Object.keys(kept).length === names.length && names.every((name) => kept[name] === labels[name])) return key;
  }
  return undefined;
}

/**
 * One label set of a counter, counted without prom-client's per-call work (a labels object
 * checked against the label names and turned into a key string each time). The first count
 * goes through `inc`; later ones add to the entry of its key, as `inc` would. An entry
 * that is gone (a reset, a removal) sends the count through `inc` again.
 */
export function counterSlot<L extends string>(counter: Counter<L>, labels: Partial<Record<L, string>>): () => void {
  const stored = counter as unknown as Stored<CounterEntry>;
  let key: string | undefined;
  return () => {
    const entry = key === undefined ? undefined : stored.hashMap[key];
    if (entry !== undefined) {
      entry.value += 1;
      return;
    }
    counter.inc(labels);
    key = keyOf(stored.hashMap, labels);
  };
}

/** As {@link counterSlot}, for one label set of a histogram: `observe` of prom-client done in place. */
export function histogramSlot<L extends string>(histogram: Histogram<L>, labels: Partial<Record<L, string>>): (value: number) => void {
  const stored = histogram as unknown as Stored<HistogramEntry> & { upperBounds: number[] };
  let key: string | undefined;
  return (value) => {
    const entry = key === undefined ? undefined : stored.hashMap[key];
    if (entry === undefined || !Number.isFinite(value)) {
      histogram.observe(labels, value);
      key = keyOf(stored.hashMap, labels);
      return;
    }
    // The bucket prom-client counts a value in: the first bound not below it, none past the last.
    const bounds = stored.upperBounds;
    let bound = -1;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        bound = bounds[i];
        break;
      }
    }
    entry.sum += value;
    entry.count += 1;
    if (Object.prototype.hasOwnProperty.call(entry.bucketValues, bound)) entry.bucketValues[bound] += 1;
  };
}
