import type { RotationSpec } from './shift.types.js';
import type { Cadence } from './rotation-cadence.js';

/** Whose turn the k-th is: the member slot (index into `members`), or null when no member is left. */
export type TurnDealer = (k: number) => number | null;

interface Era {
  /** The first turn dealt this way. */
  k0: number;
  /** Member slots still taking turns, in order. */
  slots: number[];
  /** Which of `slots` takes turn k0. */
  offset: number;
}

/**
 * Deals turns to member slots. Without departures, turn k is slot k mod n. Each departure
 * (a member whose user was deleted, at that instant) starts a new era at the first turn
 * that begins at or after it: the slots left take turns from there, starting with the one
 * that would have been next in order, so the turns that began before the deletion are
 * dealt as they always were.
 */
export function turnDealer(rotation: RotationSpec, cadence: Cadence): TurnDealer {
  const n = rotation.members.length;
  const eras: Era[] = [{ k0: 0, slots: [...Array(n).keys()], offset: 0 }];
  const departures = [...(rotation.departures ?? [])].filter((d) => d.index < n).sort((a, b) => a.at - b.at);
  for (const d of departures) {
    const era = eras[eras.length - 1]!;
    if (!era.slots.includes(d.index)) continue;
    const i = cadence.indexAt(d.at);
    const k0 = d.at <= rotation.starts_at ? 0 : Math.max(0, cadence.at(i) >= d.at ? i : i + 1);
    const at = era.slots.length ? (k0 - era.k0 + era.offset) % era.slots.length : 0;
    const slots = era.slots.filter((s) => s !== d.index);
    // The slot that would have taken turn k0, or the next one after it that stays.
    let next = 0;
    for (let j = 0; j < era.slots.length; j += 1) {
      const s = era.slots[(at + j) % era.slots.length]!;
      if (s !== d.index) {
        next = slots.indexOf(s);
        break;
      }
    }
    const fresh = { k0, slots, offset: next };
    if (era.k0 === k0) eras[eras.length - 1] = fresh;
    else eras.push(fresh);
  }
  return (k) => {
    let era = eras[0]!;
    for (const e of eras) if (e.k0 <= k) era = e;
    return era.slots.length ? era.slots[(k - era.k0 + era.offset) % era.slots.length]! : null;
  };
}
