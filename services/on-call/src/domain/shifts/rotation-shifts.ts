import type { RotationSpec } from './shift.types.js';
import { cadenceOf } from './rotation-cadence.js';
import { activeIntervals } from './active-time.js';
import { type Interval, mergeIntervals } from './intervals.js';
import { charge, type WorkBudget } from './work-budget.js';
import { turnDealer } from './turn-dealer.js';

const WEEK = 7 * 86_400_000;

/**
 * A rotation's active time, computed a week or more at a time as turns ask for later
 * parts (each turn asking alone would compute the same days again and again). Turns ask
 * in order, so what lies before the last turn is dropped.
 */
function activeTimeline(rotation: RotationSpec, budget: WorkBudget | undefined, limit: number) {
  let spans: Interval[] = [];
  let until = -Infinity;
  return {
    within(s: number, e: number): Interval[] {
      if (e > until) {
        // Turns clipped to a range may jump ahead: never compute the gap between.
        const from = until > s ? until : s;
        // A week ahead, but never past the range asked (`limit`): a short look computes its days only.
        const to = Math.max(e, Math.min(from + WEEK, limit));
        spans = mergeIntervals([
          ...spans.filter(([, se]) => se > s),
          ...activeIntervals(rotation.active!, rotation.time_zone, from, to, budget),
        ]);
        until = to;
      }
      while (spans.length && spans[0]![1] <= s) spans.shift();
      const out: Interval[] = [];
      for (const [as, ae] of spans) {
        if (as >= e) break;
        out.push([Math.max(s, as), Math.min(e, ae)]);
      }
      return out;
    },
  };
}

const DAY = 86_400_000;
/** Longer than a week and its daylight-saving hour. */
const CONTINUOUS = 8 * DAY;

/** Where the active stretch holding the instant just before `t` begins (not before `floor`), a day at a time. */
function stretchStart(rotation: RotationSpec, t: number, floor: number, budget: WorkBudget | undefined): number {
  let lo = t;
  while (lo > floor) {
    const a = Math.max(floor, lo - DAY);
    const span = activeIntervals(rotation.active!, rotation.time_zone, a, lo, budget).find(([x, y]) => x < lo && y >= lo);
    if (!span) break;
    // A stretch that began before the day computed may have begun earlier still.
    const reachesBack = span[0] <= a;
    lo = Math.max(span[0], floor);
    if (!reachesBack) break;
    // Active without a break for over a week: the week repeats, so it is so back to the floor.
    if (t - lo > CONTINUOUS) return floor;
  }
  return lo;
}

/** Where the active stretch holding `t` ends (not after `ceiling`), a day at a time. */
function stretchEnd(rotation: RotationSpec, t: number, ceiling: number, budget: WorkBudget | undefined): number {
  let hi = t;
  while (hi < ceiling) {
    const b = Math.min(ceiling, hi + DAY);
    const span = activeIntervals(rotation.active!, rotation.time_zone, hi, b, budget).find(([x, y]) => x <= hi && y > hi);
    if (!span) break;
    const reachesOn = span[1] >= b;
    hi = Math.min(span[1], ceiling);
    if (!reachesOn) break;
    if (hi - t > CONTINUOUS) return ceiling;
  }
  return hi;
}

/**
 * A turn's active pieces that overlap [from, to), each whole: the active time is computed
 * only for the part of the turn inside the range, and the pieces crossing its edges are
 * followed outward only as far as they reach (a 52-week turn read for a minute costs
 * about a day of windows, not a year).
 */
function piecesNear(
  rotation: RotationSpec,
  timeline: ReturnType<typeof activeTimeline>,
  s: number,
  e: number,
  from: number,
  to: number,
  budget: WorkBudget | undefined,
): Interval[] {
  const cs = Math.max(s, from);
  const ce = Math.min(e, to);
  if (cs >= ce) return [];
  const pieces = timeline.within(cs, ce);
  if (!pieces.length) return pieces;
  const first = pieces[0]!;
  if (first[0] === cs && cs > s) pieces[0] = [stretchStart(rotation, cs, s, budget), first[1]];
  const last = pieces[pieces.length - 1]!;
  if (last[1] === ce && ce < e) pieces[pieces.length - 1] = [last[0], stretchEnd(rotation, ce, e, budget)];
  return pieces;
}

/** A rotation's shift before layering: whose turn, from when to when. */
export interface RotationShift {
  rotation: RotationSpec;
  user_id: number;
  starts_at: number;
  ends_at: number;
}

/**
 * The shifts of one rotation that overlap [from, to), each whole: every turn between two
 * handoffs (the first from the rotation's start, the last until its end), cut to its
 * active times. Members take turns in order, counted from the handoff at or before the
 * rotation's start. A member whose user was deleted keeps the turns that began before the
 * deletion, cut at it; later turns go to the members left (turn-dealer.ts). Each turn,
 * active window and piece is charged to `budget`.
 */
export function rotationShifts(rotation: RotationSpec, from: number, to: number, budget?: WorkBudget): RotationShift[] {
  const members = rotation.members;
  const end = rotation.ends_at ?? Infinity;
  if (members.length === 0 || to <= rotation.starts_at || end <= from || end <= rotation.starts_at) return [];
  const cadence = cadenceOf(rotation);
  const active = rotation.active ? activeTimeline(rotation, budget, to) : null;
  const dealer = turnDealer(rotation, cadence);
  const leftAt = new Map((rotation.departures ?? []).map((d) => [d.index, d.at]));
  const out: RotationShift[] = [];
  let k = Math.max(0, cadence.indexAt(Math.max(from, rotation.starts_at)));
  let turnStart = cadence.at(k);
  for (;;) {
    const next = cadence.at(k + 1);
    const s = Math.max(turnStart, rotation.starts_at);
    const slot = dealer(k);
    const e = Math.min(next, end, slot === null ? -Infinity : (leftAt.get(slot) ?? Infinity));
    if (s >= to || s >= end) break;
    charge(budget);
    // An empty turn (two hourly handoffs made one by spring-forward) is its member's, with no shift.
    if (e <= s) {
      k += 1;
      turnStart = next;
      continue;
    }
    const user = members[slot!]!;
    const pieces: readonly Interval[] = active ? piecesNear(rotation, active, s, e, from, to, budget) : [[s, e]];
    for (const [ps, pe] of pieces) {
      if (pe > from && ps < to) {
        charge(budget);
        out.push({ rotation, user_id: user, starts_at: ps, ends_at: pe });
      }
    }
    k += 1;
    turnStart = next;
  }
  return out;
}
