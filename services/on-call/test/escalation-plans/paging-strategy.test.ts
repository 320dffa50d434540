import fc from 'fast-check';
import { pickPeople } from '../../src/domain/escalation-plans/paging-strategy.js';

describe('pickPeople', () => {
  const people = [11, 12, 13];

  it('default pages everyone; random one of them; cycle the next each turn; alert the same one per alert', () => {
    expect(pickPeople('default', people, { alertId: 'a' })).toEqual(people);
    expect(pickPeople('random', people, { alertId: 'a', random: () => 2 })).toEqual([13]);
    expect([0, 1, 2, 3].map((turn) => pickPeople('cycle', people, { alertId: 'a', turn })[0])).toEqual([11, 12, 13, 11]);
    const first = pickPeople('alert', people, { alertId: 'alert-1' });
    expect(pickPeople('alert', people, { alertId: 'alert-1' })).toEqual(first);
    const chosen = new Set(Array.from({ length: 50 }, (_, i) => pickPeople('alert', people, { alertId: `alert-${i}` })[0]));
    expect(chosen.size).toBe(3);
  });

  it('picks exactly one of the people for every strategy but default, and nobody from nobody (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('random', 'cycle', 'alert' as const),
        fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { maxLength: 8 }),
        fc.string(),
        fc.nat(),
        (strategy, list, alertId, turn) => {
          const picked = pickPeople(strategy, list, { alertId, turn });
          return list.length ? picked.length === 1 && list.includes(picked[0]!) : picked.length === 0;
        },
      ),
    );
  });
});
