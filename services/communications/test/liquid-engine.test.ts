import { LIQUID_LIMITS, LiquidRenderError, liquidSyntaxError, renderLiquid } from '../src/domain/liquid/liquid-engine.js';
import { VARIABLE_LIMITS, variablesProblem } from '../src/domain/liquid/preview-variables.js';

describe('the Liquid sandbox', () => {
  it('parses well-formed templates and names what is wrong in the others', () => {
    expect(liquidSyntaxError('Hi {{ incident.title | upcase }}{% if incident.url %} {{ incident.url }}{% endif %}')).toBeUndefined();
    expect(liquidSyntaxError('{{ incident.title')).toMatch(/not closed/);
    expect(liquidSyntaxError('{{ x | no_such_filter }}')).toMatch(/undefined filter/);
    expect(liquidSyntaxError('{% for x in y %}')).toMatch(/not closed/);
  });

  it('refuses every tag that reads another template or a file, at parse time', () => {
    for (const tag of ['{% include "/etc/passwd" %}', '{% render "x" %}', '{% layout "x" %}{% block a %}{% endblock %}', '{% include x %}']) {
      expect([tag, liquidSyntaxError(tag)]).toEqual([tag, expect.stringMatching(/not available/)]);
    }
  });

  it('renders given variables, missing ones empty, own properties only', async () => {
    expect(await renderLiquid('{{ incident.title }} / {{ incident.nope }} / {{ incident.constructor.name }}', { incident: { title: 'DB' } })).toBe('DB /  / ');
    expect(await renderLiquid('{% for s in services %}{{ s }},{% endfor %}', { services: ['a', 'b'] })).toBe('a,b,');
  });

  it('stops a render that exceeds its time, memory or output bound', async () => {
    const started = performance.now();
    await expect(renderLiquid('{% for i in (1..900) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}', {})).rejects.toThrow(LiquidRenderError);
    expect(performance.now() - started).toBeLessThan(LIQUID_LIMITS.renderMs * 5);
    await expect(renderLiquid('{% for i in (1..100000000) %}{% endfor %}', {})).rejects.toThrow(/memory|limit/);
    await expect(renderLiquid('{{ x | date: "%9999999d" }}', { x: '2020-01-01' })).rejects.toThrow(LiquidRenderError);
    await expect(renderLiquid('{{ s }}{{ s }}', { s: 'x'.repeat(LIQUID_LIMITS.output) })).rejects.toThrow(/longer than/);
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
