/** Half-open [start, end) in epoch milliseconds. */
export type Interval = readonly [number, number];

/** Sorted, merged copy (touching intervals join). */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = [...list].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * A growing set of covered time, kept sorted and merged: layering asks what of a shift
 * is still uncovered, then covers it.
 */
export class CoveredTime {
  private readonly spans: [number, number][] = [];

  /** The parts of `[s, e)` not yet covered. */
  uncovered(s: number, e: number): Interval[] {
    const out: Interval[] = [];
    let cursor = s;
    for (let i = this.firstEndingAfter(s); i < this.spans.length && cursor < e; i += 1) {
      const [cs, ce] = this.spans[i]!;
      if (cs >= e) break;
      if (cs > cursor) out.push([cursor, cs]);
      cursor = Math.max(cursor, ce);
    }
    if (cursor < e) out.push([cursor, e]);
    return out;
  }

  cover(s: number, e: number): void {
    if (e <= s) return;
    let i = this.firstEndingAfter(s - 1);
    let start = s;
    let end = e;
    let remove = 0;
    const at = i;
    for (; i < this.spans.length && this.spans[i]![0] <= end; i += 1) {
      start = Math.min(start, this.spans[i]![0]);
      end = Math.max(end, this.spans[i]![1]);
      remove += 1;
    }
    this.spans.splice(at, remove, [start, end]);
  }

  /** Index of the first span whose end is after t (binary search). */
  private firstEndingAfter(t: number): number {
    let lo = 0;
    let hi = this.spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[mid]![1] > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
