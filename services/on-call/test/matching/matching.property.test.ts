import fc from 'fast-check';
import { RE2JS } from 're2js';
import {
  conditionProblems,
  evaluateCondition,
  evaluateConditions,
  jsonPathIssue,
  regexIssue,
  RETRIGGER_VOCABULARY,
  selectRule,
  type AlertInput,
  type Condition,
  type Operator,
} from '../../src/domain/matching/index.js';
import { ALWAYS } from './matching-fixtures.js';

const IDS = ['0b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0001', '0b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0002', '0b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0003'];
const WORDS = ['a', 'ab', 'prod', 'P1', '42', 'true', 'x.y'];
const PATHS = ['$.a', '$.b', '$.a.b', '$..a', '$.list[*]', '$.list[0]', '$'];

const id = fc.constantFrom(...IDS);
const word = fc.constantFrom(...WORDS);
const ids = fc.array(id, { maxLength: 3 });

const alert: fc.Arbitrary<AlertInput> = fc.record(
  {
    summary: fc.option(word),
    urgency_id: fc.option(id),
    source_id: fc.option(id),
    source: fc.option(fc.constantFrom('manual', 'api')),
    service_ids: fc.option(ids),
    group_ids: fc.option(ids),
    fields: fc.option(fc.dictionary(fc.constantFrom('f', 'g'), fc.option(word))),
    payload: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ a: fc.jsonValue({ maxDepth: 2 }), list: fc.array(fc.oneof(word, fc.integer())) }),
    ),
  },
  { requiredKeys: [] },
);

/** Conditions of re-trigger rules that pass validation. */
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('urgency', 'service', 'group', 'source'),
    operator: fc.constantFrom<Operator>('is_one_of', 'is_not_one_of'),
    record_ids: fc.array(id, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constantFrom('urgency', 'service', 'group', 'source'),
    operator: fc.constantFrom<Operator>('is_set', 'is_not_set'),
  }),
  fc.record({
    kind: fc.constant('payload'),
    operator: fc.constantFrom<Operator>('is_one_of', 'is_not_one_of', 'contains', 'does_not_contain', 'starts_with', 'ends_with'),
    property_field_name: fc.constantFrom(...PATHS),
    values: fc.array(word, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('alert_field'),
    operator: fc.constantFrom<Operator>('is_set', 'is_not_set'),
    property_field_name: fc.constantFrom('f', 'g'),
  }),
);

const NEGATIONS = [
  ['is_one_of', 'is_not_one_of'],
  ['is_set', 'is_not_set'],
  ['contains', 'does_not_contain'],
] as const;

describe('matching properties', () => {
  it('the generated conditions are valid re-trigger conditions', () => {
    fc.assert(fc.property(condition, (c) => conditionProblems(c, RETRIGGER_VOCABULARY).length === 0));
  });

  it('a negated operator holds exactly when its positive one does not', () => {
    fc.assert(
      fc.property(condition, alert, (c, a) => {
        for (const [yes, no] of NEGATIONS) {
          if (c.operator !== yes && c.operator !== no) continue;
          const positive = evaluateCondition({ ...c, operator: yes }, 0, a).matched;
          expect(evaluateCondition({ ...c, operator: no }, 0, a).matched).toBe(!positive);
        }
      }),
    );
  });

  it('no conditions match every alert; a single condition means the same in both modes', () => {
    fc.assert(
      fc.property(alert, condition, (a, c) => {
        expect(evaluateConditions([], 'all', a).matched && evaluateConditions([], 'any', a).matched).toBe(true);
        expect(evaluateConditions([c], 'all', a).matched).toBe(evaluateConditions([c], 'any', a).matched);
      }),
    );
  });

  it('all is every, any is some, of the conditions one by one', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 5 }), alert, (cs, a) => {
        const each = cs.map((c, i) => evaluateCondition(c, i, a).matched);
        expect(evaluateConditions(cs, 'all', a).matched).toBe(each.every(Boolean));
        expect(evaluateConditions(cs, 'any', a).matched).toBe(each.some(Boolean));
      }),
    );
  });

  it('a quoted literal as a pattern finds what contains finds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ minLength: 1, maxLength: 5 }), (text, needle) => {
        const base = { kind: 'alert_field', property_field_name: 'f' } as const;
        const a: AlertInput = { fields: { f: text } };
        expect(evaluateCondition({ ...base, operator: 'matches_regex', values: [RE2JS.quote(needle)] }, 0, a).matched).toBe(
          evaluateCondition({ ...base, operator: 'contains', values: [needle] }, 0, a).matched,
        );
      }),
    );
  });

  it('the winner is the first matching rule by position, however the rules are given', () => {
    const rules = fc.uniqueArray(
      fc.record({ id: fc.uuid(), position: fc.integer({ min: 0, max: 1_000 }), conditions: fc.array(condition, { maxLength: 3 }) }),
      {
        maxLength: 8,
        selector: (r) => r.position,
      },
    );
    fc.assert(
      fc.property(rules, alert, (rs, a) => {
        const expected = [...rs].sort((x, y) => x.position - y.position).find((r) => evaluateConditions(r.conditions, 'all', a).matched);
        expect(selectRule(rs, a, () => 'all').rule?.id).toBe(expected?.id);
        expect(selectRule([...rs].reverse(), a, () => 'all').rule?.id).toBe(expected?.id);
      }),
    );
  });

  it('evaluating never throws, whatever the payload', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...PATHS, '$..*', '$[?@.a]'), (payload, path) => {
        evaluateConditions([ALWAYS, { kind: 'payload', operator: 'matches_regex', property_field_name: path, values: ['.'] }], 'any', {
          payload,
        });
      }),
    );
  });

  it('checking paths and patterns never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        for (const issue of [jsonPathIssue(text), regexIssue(text)]) expect(issue === null || typeof issue === 'string').toBe(true);
      }),
    );
  });
});
