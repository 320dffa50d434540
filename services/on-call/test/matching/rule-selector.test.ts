import { evaluateCondition, MAX_REGEX_INPUT_LENGTH, regexBudget, selectRule, type Condition, type RankedRule } from '../../src/domain/matching/index.js';
import { BARE, FULL, U_HIGH, U_LOW } from './matching-fixtures.js';

interface Rule extends RankedRule { mode: 'all' | 'any' }

const high: Condition = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH] };
const low: Condition = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_LOW] };
const rule = (id: string, position: number | null, conditions: Condition[], extra: Partial<Rule> = {}): Rule => ({ id, position, conditions, mode: 'all', ...extra });
const select = (rules: Rule[], alert = FULL) => selectRule(rules, alert, (r) => r.mode);

describe('selectRule', () => {
  it('answers no rule when there are none, or none matches', () => {
    expect(select([])).toEqual({ rule: null, evaluated: [] });
    const result = select([rule('a', 1, [low]), rule('b', 2, [low])]);
    expect(result.rule).toBeNull();
    expect(result.evaluated.map((v) => [v.rule.id, v.matched])).toEqual([['a', false], ['b', false]]);
  });

  it('takes the matching rule with the lowest position, whatever the order given', () => {
    const rules = [rule('late', 5, [high]), rule('miss', 0, [low]), rule('early', 2, [high])];
    const result = select(rules);
    expect(result.rule?.id).toBe('early');
    expect(result.evaluated.map((v) => v.rule.id)).toEqual(['miss', 'early']);
  });

  it('stops at the first match: later rules are not evaluated', () => {
    const result = select([rule('first', 1, []), rule('second', 2, [high])]);
    expect(result.rule?.id).toBe('first');
    expect(result.evaluated).toHaveLength(1);
  });

  it('lets a rule without conditions catch every alert', () => {
    expect(select([rule('specific', 1, [low]), rule('catch-all', 9, [])], BARE).rule?.id).toBe('catch-all');
  });

  it('applies each rule its own match mode', () => {
    const rules = [rule('all', 1, [high, low]), rule('any', 2, [high, low], { mode: 'any' })];
    expect(select(rules).rule?.id).toBe('any');
  });

  it('breaks ties of position by creation, then id; rules without position come last', () => {
    const rules = [
      rule('none', null, []),
      rule('b', 3, [], { created_at: '2026-01-02T00:00:00.000Z' }),
      rule('a', 3, [], { created_at: new Date('2026-01-02T00:00:00.000Z') }),
      rule('old', 3, [], { created_at: '2026-01-01T00:00:00.000Z' }),
    ];
    expect(select(rules).rule?.id).toBe('old');
    expect(select(rules.slice(0, 3)).rule?.id).toBe('a');
    expect(select(rules.slice(0, 1)).rule?.id).toBe('none');
  });
});

describe('matches_regex cannot hang the service', () => {
  const pathological = 'a'.repeat(50_000) + '!';

  it.each([
    ['an alert field', { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a+)+$'] }, { fields: { f: pathological } }],
    ['a payload value', { kind: 'payload', operator: 'matches_regex', property_field_name: '$.m', values: ['(a+)+$'] }, { payload: { m: pathological } }],
    ['nested alternation', { kind: 'payload', operator: 'matches_regex', property_field_name: '$.m', values: ['^(a|a?)+$'] }, { payload: { m: pathological } }],
  ] as const)('(a+)+$ and the like against 50 000 a and a ! on %s: under 50 ms', (_where, condition, alert) => {
    // A running service has its JIT warm: the same work once, on another pattern and input.
    evaluateCondition({ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(b+)+$'] }, 0, { fields: { f: `${'b'.repeat(50_000)}!` } });
    const started = performance.now();
    const result = evaluateCondition(condition as Condition, 0, alert);
    const elapsed = performance.now() - started;
    expect(result.matched).toBe(false);
    expect(elapsed).toBeLessThan(50);
  });

  it('matches where a match exists, in linear time too', () => {
    const started = performance.now();
    expect(evaluateCondition({ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a+)+!$'] }, 0, { fields: { f: pathological } }).matched).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('does not make a run that would cost more than its budget, and says so', () => {
    // 963 instructions: at most 1 000 000 / 963 = 1038 characters per run.
    const heavy: Condition = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] };
    const started = performance.now();
    const skipped = evaluateCondition(heavy, 0, { fields: { f: 'a'.repeat(60_000) } });
    expect(performance.now() - started).toBeLessThan(50);
    expect(skipped).toMatchObject({ matched: false, reason: expect.stringContaining('(1 pattern run not made: over the regex work budget)') });
    expect(evaluateCondition(heavy, 0, { fields: { f: `${'a'.repeat(1_000)}y` } })).toMatchObject({ matched: true, reason: expect.not.stringContaining('budget') });
  });

  it('shares one budget among the rules of an evaluation: later heavy runs are not made', () => {
    const heavy = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] } as const;
    const rules = Array.from({ length: 8 }, (_, i) => rule(`r${i}`, i, [heavy]));
    const result = select(rules, { fields: { f: 'a'.repeat(1_000) } });
    expect(result.rule).toBeNull();
    const unrun = result.evaluated.filter((v) => v.conditions[0]?.reason.includes('over the regex work budget')).map((v) => v.rule.id);
    // Each run costs 963 000 of the 4 000 000: four are made, the other four are not.
    expect(unrun).toEqual(['r4', 'r5', 'r6', 'r7']);
    // An ordinary pattern on the same alert still runs: its run is cheap enough.
    expect(evaluateCondition({ ...heavy, values: ['^a+$'] }, 0, { fields: { f: 'a'.repeat(1_000) } }, {}, regexBudget(20_000)).matched).toBe(true);
  });

  it('does not run a pattern on a value longer than the bound', () => {
    const long = 'b'.repeat(MAX_REGEX_INPUT_LENGTH + 1);
    const condition: Condition = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['b'] };
    expect(evaluateCondition(condition, 0, { fields: { f: long } }).matched).toBe(false);
    expect(evaluateCondition(condition, 0, { fields: { f: long.slice(1) } }).matched).toBe(true);
  });
});
