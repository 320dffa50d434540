import { createHash, randomInt } from 'node:crypto';

/** The reference's paging strategies of a level. */
export type PagingStrategy = 'default' | 'random' | 'cycle' | 'alert';

/**
 * Which of a level's people (in target order, each once) are paged: `default` all of
 * them; `random` one at random; `cycle` the next one each time the level pages
 * (`turn`, the level's counter: 0 the first time); `alert` one per alert, the same one
 * whenever that alert pages the level again (a hash of the alert id), so a re-paged
 * alert reaches the person already on it.
 */
export function pickPeople(
  strategy: PagingStrategy,
  people: readonly number[],
  choice: { alertId: string; turn?: number; random?: (n: number) => number },
): number[] {
  if (strategy === 'default' || people.length <= 1) return [...people];
  const n = people.length;
  switch (strategy) {
    case 'random':
      return [people[(choice.random ?? randomInt)(n)]!];
    case 'cycle':
      return [people[(((choice.turn ?? 0) % n) + n) % n]!];
    case 'alert':
      return [people[alertSlot(choice.alertId) % n]!];
  }
}

/** A stable number from an alert id: the first 32 bits of its SHA-256. */
export function alertSlot(alertId: string): number {
  return createHash('sha256').update(alertId).digest().readUInt32BE(0);
}
