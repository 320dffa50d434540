import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LIQUID_LIMITS } from '../src/domain/liquid/render-protocol.js';
import { createLiquidPool, LiquidLimitError, POOL_LIMITS, type LiquidPool } from '../src/domain/liquid/render-pool.js';
import { VARIABLE_LIMITS, variablesProblem } from '../src/domain/liquid/preview-variables.js';

let pool: LiquidPool;
beforeAll(() => {
  pool = createLiquidPool();
});
afterAll(async () => pool.close());

const parseError = async (source: string) => (await pool.parse([source])).errors[0];
const render = async (source: string, variables: Record<string, unknown> = {}) => pool.render([source], variables);

/** The reviewer's template: a capture of 5,900 × 90,000 'ę', then a `contains` that flattens it (1 GB). */
const HUGE_CAPTURE = `{% capture s %}{% for i in (1..5900) %}${'ę'.repeat(90_000)}{% endfor %}{% endcapture %}{% if s contains "y" %}y{% endif %}`;
/** Captures just under the output bound, each flattened and kept: the heap grows step by step past the worker's. */
const HEAP_GROWTH =
  `{% capture big %}{% for i in (1..22) %}${'ę'.repeat(9_000)}{% endfor %}{% endcapture %}` +
  '{% for i in (1..1000) %}{% capture c %}{{ i }}{{ big }}{% endcapture %}{% if c contains "y" %}{% endif %}{% assign kept = kept | push: c %}{% endfor %}';

describe('the Liquid sandbox', () => {
  it('parses well-formed templates and names what is wrong in the others', async () => {
    expect(await parseError('Hi {{ incident.title | upcase }}{% if incident.url %} {{ incident.url }}{% endif %}')).toBeNull();
    expect(await parseError('{{ incident.title')).toMatch(/not closed/);
    expect(await parseError('{{ x | no_such_filter }}')).toMatch(/undefined filter/);
    expect(await parseError('{% for x in y %}')).toMatch(/not closed/);
  });

  it('refuses every tag that reads another template or a file, at parse time', async () => {
    for (const tag of [
      '{% include "/etc/passwd" %}',
      '{% render "x" %}',
      '{% layout "x" %}{% block a %}{% endblock %}',
      '{% include x %}',
    ]) {
      expect([tag, await parseError(tag)]).toEqual([tag, expect.stringMatching(/not available/)]);
    }
  });

  it('renders given variables, missing ones empty, own properties only, captures included', async () => {
    expect(
      await render('{{ incident.title }} / {{ incident.nope }} / {{ incident.constructor.name }}', { incident: { title: 'DB' } }),
    ).toEqual({ ok: true, outputs: ['DB /  / '] });
    expect(await pool.render(['{% for s in services %}{{ s }},{% endfor %}', null], { services: ['a', 'b'] })).toEqual({
      ok: true,
      outputs: ['a,b,', null],
    });
    expect(await render('{% capture t %}[{{ x | upcase }}]{% endcapture %}{{ t }}{{ t }}', { x: 'a' })).toEqual({
      ok: true,
      outputs: ['[A][A]'],
    });
  });

  it('stops a render that exceeds its time, memory or output bound, naming the source', async () => {
    const started = performance.now();
    // Under the memory bound (ranges of 900,900 in all), over the time bound: each step scans a string.
    const slow = '{% for i in (1..900) %}{% for j in (1..1000) %}{% if s contains "zz" %}{% endif %}{% endfor %}{% endfor %}';
    expect(await pool.render(['ok', slow], { s: 'x'.repeat(2_000) })).toMatchObject({
      ok: false,
      index: 1,
      message: expect.stringMatching(/render limit/),
    });
    expect(performance.now() - started).toBeLessThan(POOL_LIMITS.renderBudgetMs + 500);
    expect(await render('{% for i in (1..100000000) %}{% endfor %}')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/memory alloc limit exceeded/),
    });
    expect(await render('{{ x | date: "%9999999d" }}', { x: '2020-01-01' })).toMatchObject({ ok: false });
    expect(await render('{{ s }}{{ s }}', { s: 'x'.repeat(LIQUID_LIMITS.output) })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/longer than/),
    });
  });

  it("bounds what {% capture %} collects, so the reviewer's 1 GB capture is refused at once and the worker stays", async () => {
    const started = performance.now();
    expect(await render(HUGE_CAPTURE)).toMatchObject({ ok: false, message: expect.stringMatching(/longer than 200000 characters/) });
    expect(performance.now() - started).toBeLessThan(POOL_LIMITS.renderBudgetMs);
    expect(await render('{{ 1 | plus: 1 }}')).toEqual({ ok: true, outputs: ['2'] });
  });

  it('ends a worker whose heap outgrows its bound, whatever time the growth takes', async () => {
    // With the time bounds out of reach only the heap can end it: near its cap V8 spends
    // itself in full collections, which on a loaded machine can outlast 300 ms.
    const roomy = createLiquidPool({ ...POOL_LIMITS, renderBudgetMs: 60_000 }, { ...LIQUID_LIMITS, renderMs: 60_000 });
    try {
      const memory = roomy.render([HEAP_GROWTH], {});
      await expect(memory).rejects.toThrow(LiquidLimitError);
      await expect(memory).rejects.toMatchObject({ limit: 'memory', message: expect.stringMatching(/64 MB/) });
      expect(await roomy.render(['{{ "fine" }}'], {})).toEqual({ ok: true, outputs: ['fine'] });
    } finally {
      await roomy.close();
    }
  });

  it('ends a render whose heap grows or that runs past the budget, with the event loop free meanwhile, and replaces the worker', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // Under the real bounds the heap cap, liquidjs' time limit or the pool's budget ends
    // it, whichever comes first on this machine.
    const grown = await render(HEAP_GROWTH).then(
      (reply) => reply,
      (err: unknown) => err,
    );
    if (grown instanceof LiquidLimitError) expect(['memory', 'time']).toContain(grown.limit);
    else expect(grown).toEqual({ ok: false, index: 0, message: expect.stringMatching(/render limit exceeded/) });
    // Many slow fields under a liquidjs per-render time too long to matter (on a loaded
    // machine one field alone can outlast the real one), and its allocation count out of
    // reach (a field's 1 001 000 units pass the real million just before it ends, which a
    // quiet machine reaches inside the budget): only the pool's budget ends them.
    const patient = createLiquidPool(POOL_LIMITS, { ...LIQUID_LIMITS, renderMs: 60_000, memory: Number.MAX_SAFE_INTEGER });
    // Seconds of work each, so ending near the budget can only be the pool's doing.
    const slow = Array.from({ length: 20 }, () => '{% for i in (1..1000) %}{% for j in (1..1000) %}{% endfor %}{% endfor %}');
    await patient.render(['{{ "warm" }}'], {}); // its worker is up before the clock starts
    const started = performance.now();
    try {
      await expect(patient.render(slow, {})).rejects.toMatchObject({ limit: 'time' });
      expect(performance.now() - started).toBeLessThan(POOL_LIMITS.renderBudgetMs + 1_500);
    } finally {
      await patient.close();
    }
    delay.disable();
    // The event loop never waited on the renders (the bound is loose for a shared machine).
    expect(delay.max / 1e6).toBeLessThan(100);
    expect(await render('{{ "fine" }}')).toEqual({ ok: true, outputs: ['fine'] });
  });

  it('refuses jobs beyond its queue with a 503, never queueing without bound', async () => {
    const small = createLiquidPool({ ...POOL_LIMITS, workers: 1, queue: 1, waitMs: 5_000 });
    try {
      const busy = '{% for i in (1..300) %}{% for j in (1..300) %}{% endfor %}{% endfor %}';
      const jobs = [small.render([busy, busy, busy], {}), small.render([busy], {}), small.render([busy], {})];
      const settled = await Promise.allSettled(jobs);
      expect(settled[2]).toMatchObject({
        status: 'rejected',
        reason: { status: 503, code: 'liquid_busy', headers: { 'Retry-After': '1' } },
      });
      expect(settled[0].status === 'fulfilled' || (settled[0].reason as LiquidLimitError).limit === 'time').toBe(true);
    } finally {
      await small.close();
    }
  });
});

describe('preview variables', () => {
  it('accepts objects within the bounds and names the bound a document breaks', () => {
    expect(variablesProblem({ incident: { title: 'x', tags: ['a', { b: 1 }] } })).toBeUndefined();
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < VARIABLE_LIMITS.depth; i++) deep = { a: deep };
    expect(variablesProblem(deep)).toBeUndefined();
    expect(variablesProblem({ a: deep })).toMatch(/levels deep/);
    expect(variablesProblem({ big: 'x'.repeat(VARIABLE_LIMITS.bytes) })).toMatch(/bytes/);
    expect(variablesProblem({ many: Array.from({ length: VARIABLE_LIMITS.bytes / 4 }, () => 1) })).toMatch(/bytes/);
  });
});
