import type { RotationSpec } from './shift.types.js';
import { cadenceOf } from './rotation-cadence.js';
import { activeIntervals } from './active-time.js';
import { intersect } from './intervals.js';

/** A rotation's shift before layering: whose turn, from when to when. */
export interface RotationShift {
  rotation: RotationSpec;
  user_id: number | null;
  starts_at: number;
  ends_at: number;
}

/**
 * The shifts of one rotation that overlap [from, to), each whole: every turn between two
 * handoffs (the first from the rotation's start, the last until its end), cut to its
 * active times. Members take turns in order, counted from the handoff at or before the
 * rotation's start.
 */
export function rotationShifts(rotation: RotationSpec, from: number, to: number): RotationShift[] {
  const members = rotation.members;
  const end = rotation.ends_at ?? Infinity;
  if (members.length === 0 || to <= rotation.starts_at || end <= from || end <= rotation.starts_at) return [];
  const cadence = cadenceOf(rotation);
  const out: RotationShift[] = [];
  let k = Math.max(0, cadence.indexAt(Math.max(from, rotation.starts_at)));
  let turnStart = cadence.at(k);
  for (;;) {
    const next = cadence.at(k + 1);
    const s = Math.max(turnStart, rotation.starts_at);
    const e = Math.min(next, end);
    if (s >= to || s >= end) break;
    const user = members[k % members.length] ?? null;
    const pieces: readonly (readonly [number, number])[] = rotation.active ? intersect(s, e, activeIntervals(rotation.active, rotation.time_zone, s, e)) : [[s, e]];
    for (const [ps, pe] of pieces) {
      if (pe > from && ps < to) out.push({ rotation, user_id: user, starts_at: ps, ends_at: pe });
    }
    k += 1;
    turnStart = next;
  }
  return out;
}
