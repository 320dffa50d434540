import { decideRoute } from '../../src/domain/routing/route-selector.js';
import { legacyConditionsSchema } from '../../src/domain/routing/routing.conditions.js';
import {
  MAX_ROUTE_CONDITION_CHARS,
  MAX_ROUTE_PATTERNS,
  MAX_RULE_POSITION,
  rulesInput,
} from '../../src/domain/routing/alert-routes.schemas.js';

const condition = (operator: string, values: string[]) => ({
  property_field_type: 'payload',
  property_field_name: '$.m',
  property_field_condition_type: operator,
  property_field_values: values,
});
const rule = (name: string, conditions: unknown[], more: Record<string, unknown> = {}) => ({
  name,
  destinations: [],
  condition_groups: [{ conditions }],
  ...more,
});
const SOURCE = '6f1c2a3b-0000-4000-8000-000000000001';
const legacyMessages = (input: unknown) => {
  const parsed = legacyConditionsSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('/')}: ${i.message}`);
};
const messages = (input: unknown) => {
  const parsed = rulesInput.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('/')}: ${i.message}`);
};

describe('an alert route rules list', () => {
  it('bounds the patterns and characters of one route together, beyond each condition group', () => {
    const patterns = Array.from({ length: 15 }, (_, i) => `^p${i}$`);
    expect(messages([rule('a', [condition('matches_regex', patterns)]), rule('b', [condition('matches_regex', patterns)])])).toEqual([]);
    const three = ['a', 'b', 'c'].map((n) => rule(n, [condition('matches_regex', patterns)]));
    expect(messages(three)).toEqual([`: hold at most ${MAX_ROUTE_PATTERNS} matches_regex patterns together in one route`]);
    const long = Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(1000, 'x'));
    const wide = ['a', 'b', 'c'].map((n) => rule(n, [condition('is_one_of', long)]));
    expect(messages(wide)).toEqual([
      `: hold at most ${MAX_ROUTE_CONDITION_CHARS} characters of values and property names together in one route`,
    ]);
  });

  it('places rules without a position after those with one, drops _destroy entries and keeps ids', () => {
    const id = '6F1C2A3B-0000-4000-8000-000000000001';
    const parsed = rulesInput.parse([
      rule('first', [], { position: 4 }),
      { id: '6f1c2a3b-0000-4000-8000-000000000002', _destroy: true },
      rule('then', [], { id }),
      { ...rule('rest', [], { fallback_rule: true }), condition_groups: [] },
    ]);
    expect(parsed.map((r) => [r.name, r.position, r.id ?? null, r.fallback_rule])).toEqual([
      ['first', 4, null, false],
      ['then', 5, id.toLowerCase(), false],
      ['rest', 6, null, true],
    ]);
    expect(parsed[0].condition_groups[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), position: 0, conditions: [] });
  });

  it('requires name, destinations and condition groups of a kept rule only', () => {
    expect(messages([{ position: 1 }])).toEqual(['0/name: is required', '0/destinations: is required', '0/condition_groups: is required']);
    expect(messages([{ id: '6f1c2a3b-0000-4000-8000-000000000002', _destroy: true }])).toEqual([]);
  });

  it('refuses a rule without a position when none is left after the others, rather than sharing the last one', () => {
    expect(messages([rule('last', [], { position: MAX_RULE_POSITION - 1 }), rule('a', []), rule('b', [])])).toEqual([
      `2/position: is needed: no position after ${MAX_RULE_POSITION} is left for a rule sent without one`,
    ]);
    expect(rulesInput.parse([rule('last', [], { position: MAX_RULE_POSITION - 1 }), rule('a', [])]).map((r) => r.position)).toEqual([
      MAX_RULE_POSITION - 1,
      MAX_RULE_POSITION,
    ]);
  });

  it("refuses patterns that together would take most of an alert's routing budget to compile, so its rules could never be judged", () => {
    // 246 characters: about 6.5 ms of the 100 ms budget each to compile.
    const long = (i: number) => `^(${'abcdefghij'.repeat(24)})${i}x$`;
    const rules = (n: number) => Array.from({ length: n }, (_, i) => rule(`r${i}`, [condition('matches_regex', [long(i)])]));
    expect(messages(rules(5))).toEqual([]);
    expect(messages(rules(15))).toEqual([
      expect.stringMatching(/^: compile its matches_regex patterns in about \d+ ms together, at most 50/),
    ]);
    // The most it takes still leaves the route's rules judged on an alert, a match-all rule after them included.
    const most = [...Array(16).keys()].filter((n) => messages(rules(n)).length === 0).pop()!;
    expect(most).toBeGreaterThanOrEqual(5);
    const stored = rulesInput.parse([...rules(most), { name: 'all', destinations: [], condition_groups: [] }]);
    const route = { id: 'r', name: 'r', enabled: true, alerts_source_ids: [SOURCE], created_at: '2026-11-01T00:00:00Z', rules: stored };
    expect(decideRoute({ source_id: SOURCE, summary: 'disk full on db-1' }, [route as never], []).rule?.name).toBe('all');
    expect(legacyMessages(rules(most).map((r) => r.condition_groups[0].conditions[0]))).toEqual([]);
    expect(legacyMessages(rules(15).map((r) => r.condition_groups[0].conditions[0]))).toEqual([
      expect.stringMatching(/^: compile its matches_regex patterns in about \d+ ms together/),
    ]);
    // The same pattern twice compiles once.
    expect(messages(Array.from({ length: 15 }, (_, i) => rule(`r${i}`, [condition('matches_regex', [long(0)])])))).toEqual([]);
  });
});
