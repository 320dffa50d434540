import {
  evaluateCondition,
  evaluateConditions,
  GROUP_VOCABULARY,
  operatorsFor,
  RETRIGGER_VOCABULARY,
  type ConditionKind,
} from '../../src/domain/matching/index.js';
import { EVALUATE_CASES } from './evaluate-cases.js';
import { ALWAYS, BARE, FULL, NEVER, U_HIGH, U_LOW } from './matching-fixtures.js';

describe('evaluateCondition: every kind × operator', () => {
  it.each(EVALUATE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const explained = evaluateCondition(c.condition, 0, c.alert, c.context);
    expect(explained.matched).toBe(c.expected);
    expect(explained.reason).toMatch(c.expected ? /: matched$/ : /: did not match$/);
  });

  it('has cases for every operator each kind takes, in both vocabularies', () => {
    const covered = new Set(EVALUATE_CASES.map((c) => `${c.condition.kind} ${c.condition.operator}`));
    for (const vocabulary of [RETRIGGER_VOCABULARY, GROUP_VOCABULARY]) {
      for (const kind of Object.keys(vocabulary.kinds) as ConditionKind[]) {
        for (const operator of operatorsFor(vocabulary, kind)) expect(covered).toContain(`${kind} ${operator}`);
      }
    }
  });

  it('has cases that hold and cases that do not for each kind', () => {
    const kinds = new Set(EVALUATE_CASES.map((c) => c.condition.kind));
    for (const kind of kinds) {
      const outcomes = new Set(EVALUATE_CASES.filter((c) => c.condition.kind === kind).map((c) => c.expected));
      expect([kind, [...outcomes].sort()]).toEqual([kind, [false, true]]);
    }
  });
});

describe('evaluateConditions: match modes', () => {
  // Each case again beside a partner that cannot change its outcome in that mode.
  it.each(EVALUATE_CASES.map((c) => [c.name, c] as const))('all (beside a condition that holds): %s', (_name, c) => {
    const result = evaluateConditions([ALWAYS, c.condition], 'all', c.alert, c.context);
    expect(result.matched).toBe(c.expected);
    expect(result.conditions.map((e) => e.matched)).toEqual([true, c.expected]);
  });

  it.each(EVALUATE_CASES.map((c) => [c.name, c] as const))('any (beside a condition that fails): %s', (_name, c) => {
    const result = evaluateConditions([c.condition, NEVER], 'any', c.alert, c.context);
    expect(result.matched).toBe(c.expected);
    expect(result.conditions.map((e) => e.matched)).toEqual([c.expected, false]);
  });

  const high = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH] } as const;
  const low = { kind: 'urgency', operator: 'is_one_of', record_ids: [U_LOW] } as const;

  it.each([
    ['all', [], true],
    ['any', [], true],
    ['all', [high], true],
    ['any', [high], true],
    ['all', [low], false],
    ['any', [low], false],
    ['all', [high, high], true],
    ['any', [high, high], true],
    ['all', [high, low], false],
    ['any', [high, low], true],
    ['all', [low, high], false],
    ['any', [low, high], true],
    ['all', [low, low], false],
    ['any', [low, low], false],
  ] as const)('%s of %j', (mode, conditions, expected) => {
    expect(evaluateConditions(conditions, mode, FULL).matched).toBe(expected);
  });

  it('matches every alert, even one with nothing set, when there are no conditions', () => {
    for (const mode of ['all', 'any'] as const) {
      expect(evaluateConditions([], mode, BARE)).toEqual({ matched: true, conditions: [] });
    }
  });

  it('explains every condition, in order, with its id', () => {
    const result = evaluateConditions(
      [
        { ...low, id: 'c-1' },
        { ...high, id: 'c-2' },
      ],
      'any',
      FULL,
    );
    expect(result.conditions).toEqual([
      expect.objectContaining({ id: 'c-1', index: 0, kind: 'urgency', operator: 'is_one_of', matched: false }),
      expect.objectContaining({ id: 'c-2', index: 1, matched: true, reason: `urgency has "${U_HIGH}"; is_one_of: matched` }),
    ]);
  });

  it('says what a payload path found, or that it found nothing', () => {
    const [found, missing] = evaluateConditions(
      [
        { kind: 'payload', operator: 'is_one_of', property_field_name: '$.count', values: ['41'] },
        { kind: 'payload', operator: 'is_set', property_field_name: '$.missing' },
      ],
      'all',
      FULL,
    ).conditions;
    expect(found?.reason).toBe('payload $.count has "42"; is_one_of: did not match');
    expect(missing?.reason).toBe('payload $.missing is not set; is_set: did not match');
  });
});
