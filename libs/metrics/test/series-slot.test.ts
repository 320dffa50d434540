import { Counter, Histogram, Registry } from 'prom-client';
import { counterSlot, histogramSlot } from '../src/series-slot.js';

/** A counter and a histogram of a registry of their own. */
function pair() {
  const registry = new Registry();
  const counter = new Counter({ name: 'things_total', help: 'Things.', labelNames: ['kind'], registers: [registry] });
  const histogram = new Histogram({
    name: 'things_seconds',
    help: 'Things.',
    labelNames: ['kind'],
    buckets: [0.1, 1, 5],
    registers: [registry],
  });
  return { registry, counter, histogram };
}

describe('series slots', () => {
  it("leave the same series and values as prom-client's inc and observe, through resets and removals", async () => {
    const given = pair();
    const slotted = pair();
    const a = { kind: 'a' };
    const b = { kind: 'b' };
    const count = { a: counterSlot(slotted.counter, a), b: counterSlot(slotted.counter, b) };
    const time = { a: histogramSlot(slotted.histogram, a), b: histogramSlot(slotted.histogram, b) };
    const values = [0.05, 0.1, 0.5, 1, 3, 5, 7, 0, 1e-9];
    const both = (kind: 'a' | 'b', value: number) => {
      given.counter.inc({ kind });
      given.histogram.observe({ kind }, value);
      count[kind]();
      time[kind](value);
    };

    for (const value of values) both('a', value);
    both('b', 2);
    expect(await slotted.registry.metrics()).toBe(await given.registry.metrics());

    for (const { counter, histogram } of [given, slotted]) {
      counter.reset();
      histogram.remove({ kind: 'a' });
    }
    for (const value of values.slice(3)) both('a', value);
    both('b', 0.2);
    expect(await slotted.registry.metrics()).toBe(await given.registry.metrics());
  });

  it('add to a series another call made, and refuse what prom-client refuses', async () => {
    const { registry, counter, histogram } = pair();
    counter.inc({ kind: 'a' }, 2);
    histogram.observe({ kind: 'a' }, 0.5);
    counterSlot(counter, { kind: 'a' })();
    counterSlot(counter, { kind: 'a' })();
    histogramSlot(histogram, { kind: 'a' })(0.5);
    const text = await registry.metrics();
    expect(text).toContain('things_total{kind="a"} 4');
    expect(text).toContain('things_seconds_count{kind="a"} 2');
    expect(() => histogramSlot(histogram, { kind: 'a' })(Number.NaN)).toThrow(/not a valid number/);
  });
});
