import {
  COSTS,
  evaluateCondition,
  EVALUATION_BUDGET_NS,
  evaluationBudget,
  EvaluationBudgetExceeded,
  selectRule,
  type Condition,
  type RankedRule,
} from '../../src/domain/matching/index.js';
import { BARE, FULL, U_HIGH, U_LOW } from './matching-fixtures.js';

interface Rule extends RankedRule {
  mode: 'all' | 'any';
}

const high: Condition = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH] };
const low: Condition = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_LOW] };
const rule = (id: string, position: number | null, conditions: Condition[], extra: Partial<Rule> = {}): Rule => ({
  id,
  position,
  conditions,
  mode: 'all',
  ...extra,
});
const select = (rules: Rule[], alert = FULL) => selectRule(rules, alert, (r) => r.mode);

describe('selectRule', () => {
  it('answers no rule when there are none, or none matches', () => {
    expect(select([])).toEqual({ rule: null, evaluated: [] });
    const result = select([rule('a', 1, [low]), rule('b', 2, [low])]);
    expect(result.rule).toBeNull();
    expect(result.evaluated.map((v) => [v.rule.id, v.matched])).toEqual([
      ['a', false],
      ['b', false],
    ]);
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
  const cases = [
    [{ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a+)+$'] }, { fields: { f: pathological } }],
    [{ kind: 'payload', operator: 'matches_regex', property_field_name: '$.m', values: ['(a+)+$'] }, { payload: { m: pathological } }],
    [{ kind: 'payload', operator: 'matches_regex', property_field_name: '$.m', values: ['^(a|a?)+$'] }, { payload: { m: pathological } }],
  ] as const;

  // The one timing requirement, at the engine (HTTP and a loaded CI machine add their own noise).
  it('(a+)+$ and the like against 50 000 a and a !: no match, each under 50 ms once the JIT is warm', () => {
    evaluateCondition({ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(b+)+$'] }, 0, {
      fields: { f: `${'b'.repeat(50_000)}!` },
    });
    // The best of five runs: a busy machine may stall one run, but backtracking would slow every one.
    for (const [condition, alert] of cases) {
      const runs = Array.from({ length: 5 }, () => {
        const started = performance.now();
        const result = evaluateCondition(condition as Condition, 0, alert);
        expect(result.matched).toBe(false);
        return performance.now() - started;
      });
      expect(Math.min(...runs)).toBeLessThan(50);
    }
  });

  it('is charged its worst case, which the budget holds: the same every time', () => {
    const budget = evaluationBudget();
    expect(
      evaluateCondition(
        { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a+)+!$'] },
        0,
        { fields: { f: pathological } },
        {},
        budget,
      ).matched,
    ).toBe(true);
    const charged = EVALUATION_BUDGET_NS - budget.remaining;
    expect(charged).toBeGreaterThan(COSTS.regexStep * pathological.length);
    expect(charged).toBeLessThan(EVALUATION_BUDGET_NS / 2);
  });

  it('does not make a run whose worst case the evaluation cannot pay: it throws before the run', () => {
    // 963 instructions over 60 000 characters: about 1.2 s of NFA work at worst, against a budget of 100 ms.
    const heavy: Condition = { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] };
    expect(() => evaluateCondition(heavy, 0, { fields: { f: 'a'.repeat(60_000) } })).toThrow(EvaluationBudgetExceeded);
    expect(evaluateCondition(heavy, 0, { fields: { f: `${'a'.repeat(1_000)}y` } }).matched).toBe(true);
  });
});
