import {
  COSTS, evaluateCondition, EVALUATION_BUDGET_NS, evaluationBudget, EvaluationBudgetExceeded, selectRule, type Condition, type RankedRule,
} from '../../src/domain/matching/index.js';
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

  it('does not make a run that would cost more than the evaluation may: it throws, at once', () => {
    // 963 instructions over 60 000 characters: about 1.2 s of NFA work at worst, against a budget of 100 ms.
    const heavy: Condition = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] };
    const started = performance.now();
    expect(() => evaluateCondition(heavy, 0, { fields: { f: 'a'.repeat(60_000) } })).toThrow(EvaluationBudgetExceeded);
    expect(performance.now() - started).toBeLessThan(50);
    expect(evaluateCondition(heavy, 0, { fields: { f: `${'a'.repeat(1_000)}y` } }).matched).toBe(true);
  });
});

describe('the evaluation budget', () => {
  const heavy = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] } as const;
  const alert = { fields: { f: 'a'.repeat(1_000) } };

  const payload = { items: Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: 'x'.repeat(30) })) };
  // Each walk of this ~100 KB payload (a path with a descendant segment) is charged 60 ns a byte.
  const fit = Math.floor(EVALUATION_BUDGET_NS / (COSTS.payloadByte * JSON.stringify(payload).length));
  const walking = (i: number): Condition => ({ kind: 'payload', operator: 'is_set', property_field_name: `$.items[${i}:]..*` });
  const rules = (n: number) => Array.from({ length: n }, (_, i) => rule(`r${i}`, i, [{ ...walking(i), operator: 'is_not_set' }]));

  it('is one for all the rules of an evaluation', () => {
    expect(fit).toBeGreaterThan(10);
    expect(select(rules(fit), { payload }).rule).toBeNull();
    expect(() => select(rules(fit + 1), { payload })).toThrow(EvaluationBudgetExceeded);
  });

  it('may be shared by a caller across selections, and a spent budget makes no more regex runs', () => {
    const budget = evaluationBudget();
    for (let i = 0; i < fit; i++) selectRule([rule(`r${i}`, i, [walking(i)])], { payload }, () => 'all', {}, budget);
    expect(() => selectRule([rule('last', fit, [walking(fit)])], { payload }, () => 'all', {}, budget)).toThrow(/too much to evaluate/);
    expect(() => evaluateCondition(heavy, 0, alert, {}, evaluationBudget(0))).toThrow(EvaluationBudgetExceeded);
    expect(evaluateCondition(heavy, 0, alert, {}, evaluationBudget(1)).matched).toBe(false);
  });

  it('queries a payload once per path and evaluation, however many conditions use the path', () => {
    const everywhere = (i: number): Condition => ({ kind: 'payload', operator: 'contains', property_field_name: '$..*', values: [`never-${i}`] });
    const started = performance.now();
    expect(select([rule('many', 1, Array.from({ length: 50 }, (_, i) => everywhere(i)))], { payload }).rule).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
    // Distinct descendant paths are each a walk of the payload, so more than `fit` of them are too many.
    const tooMany = Array.from({ length: fit + 1 }, (_, i): Condition => ({ ...everywhere(i), property_field_name: `$.items[${i}:]..*` }));
    expect(() => select([rule('too many paths', 1, tooMany)], { payload })).toThrow(EvaluationBudgetExceeded);
  });

  it('charges names-and-indices paths next to nothing, whatever the payload', () => {
    const payload = { big: 'x'.repeat(120_000), priority: 'P1' };
    const conditions = Array.from({ length: 50 }, (_, i): Condition => ({ kind: 'payload', operator: 'is_one_of', property_field_name: `$.priority`, values: [`P${i}`] }));
    expect(select(Array.from({ length: 100 }, (_, i) => rule(`r${i}`, i, conditions)), { payload }).rule).toBeNull();
  });
});
