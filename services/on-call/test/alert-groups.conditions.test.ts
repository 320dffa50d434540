import { randomUUID } from 'node:crypto';
import { evaluateConditions, type AlertInput } from '../src/domain/matching/index.js';
import {
  groupConditionProblems,
  groupConditionsSchema,
  stored,
  toEngineCondition,
  type GroupConditionInput,
} from '../src/domain/alerts/alert-groups.conditions.js';
import { applyLegacy, legacyOf } from '../src/domain/alerts/alert-groups.legacy.js';

/** Where each written property puts its value in an alert. */
const FIELD = randomUUID();
const properties: Record<string, { condition: Partial<GroupConditionInput>; alert: (v: string | undefined) => AlertInput }> = {
  summary: { condition: { property_field_type: 'attribute', property_field_name: 'summary' }, alert: (v) => ({ summary: v }) },
  description: { condition: { property_field_type: 'attribute', property_field_name: 'description' }, alert: (v) => ({ description: v }) },
  external_url: {
    condition: { property_field_type: 'attribute', property_field_name: 'external_url' },
    alert: (v) => ({ external_url: v }),
  },
  payload: {
    condition: { property_field_type: 'payload', property_field_name: '$.labels.db' },
    alert: (v) => ({ payload: { labels: v === undefined ? {} : { db: v } } }),
  },
  alert_field: {
    condition: { property_field_type: 'alert_field', conditionable_type: 'AlertField', conditionable_id: FIELD },
    alert: (v) => ({ fields: v === undefined ? {} : { [FIELD]: v } }),
  },
};

/** Each operator: its operand, a value it holds for, one it does not (undefined: the property is missing). */
const operators: [string, Partial<GroupConditionInput>, string | undefined, string | undefined][] = [
  ['is_one_of', { property_field_values: ['mysql', 'postgres'] }, 'postgres', 'redis'],
  ['is_not_one_of', { property_field_values: ['mysql'] }, 'postgres', 'mysql'],
  ['contains', { property_field_value: 'ostg' }, 'postgres', 'mysql'],
  ['does_not_contain', { property_field_value: 'ostg' }, 'mysql', 'postgres'],
  ['starts_with', { property_field_value: 'post' }, 'postgres', 'my-postgres'],
  ['ends_with', { property_field_value: 'gres' }, 'postgres', 'postgresql'],
  ['matches_regex', { property_field_value: '^p[a-z]+s$' }, 'postgres', 'postgres-1'],
  ['is_empty', {}, undefined, 'postgres'],
  ['matches_existing_alert', {}, 'postgres', 'mysql'],
];

const condition = (input: Partial<GroupConditionInput>) => stored(input as GroupConditionInput);

/** An alert already in the group, holding 'postgres' at the property: matches_existing_alert compares with it. */
const context = (property: string) => ({ existing_alerts: [properties[property].alert('postgres')] });

const cases = Object.keys(properties).flatMap((property) =>
  operators.flatMap(([operator, operand, yes, no]) => [
    { property, operator, operand, value: yes, expected: true },
    { property, operator, operand, value: no, expected: false },
  ]),
);

describe('alert group conditions, every property type × operator, through the shared engine', () => {
  it.each(cases)('$property $operator on $value → $expected', ({ property, operator, operand, value, expected }) => {
    const c = condition({
      ...properties[property].condition,
      property_field_condition_type: operator as GroupConditionInput['property_field_condition_type'],
      ...operand,
    });
    expect(groupConditionProblems(c)).toEqual([]);
    for (const mode of ['all', 'any'] as const) {
      const result = evaluateConditions([toEngineCondition(c)], mode, properties[property].alert(value), context(property));
      expect(result.matched).toBe(expected);
      expect(result.conditions[0]).toMatchObject({ index: 0, matched: expected, reason: expect.any(String) });
    }
  });

  const high = randomUUID();
  const low = randomUUID();
  const urgencyCases: [string, string[] | undefined, string | undefined, boolean][] = [
    ['is_one_of', [high], high.toUpperCase(), true],
    ['is_one_of', [high], low, false],
    ['is_not_one_of', [high], low, true],
    ['is_not_one_of', [high], high, false],
    ['is_not_one_of', [high], undefined, true],
    ['is_empty', undefined, undefined, true],
    ['is_empty', undefined, high, false],
    ['matches_existing_alert', undefined, high, true],
    ['matches_existing_alert', undefined, low, false],
  ];
  it.each(urgencyCases)('alert_urgency %s %j on %s → %s', (operator, ids, urgency, expected) => {
    const c = condition({
      property_field_type: 'attribute',
      property_field_name: 'alert_urgency',
      property_field_condition_type: operator as GroupConditionInput['property_field_condition_type'],
      alert_urgency_ids: ids,
    });
    expect(groupConditionProblems(c)).toEqual([]);
    const result = evaluateConditions([toEngineCondition(c)], 'all', { urgency_id: urgency }, { existing_alerts: [{ urgency_id: high }] });
    expect(result.matched).toBe(expected);
  });

  it('combines conditions: all needs each, any needs one, none matches every alert', () => {
    const pg = toEngineCondition(
      condition({
        property_field_type: 'attribute',
        property_field_name: 'summary',
        property_field_condition_type: 'contains',
        property_field_value: 'postgres',
      }),
    );
    const eu = toEngineCondition(
      condition({
        property_field_type: 'payload',
        property_field_name: '$.region',
        property_field_condition_type: 'is_one_of',
        property_field_values: ['eu'],
      }),
    );
    const alert = { summary: 'postgres down', payload: { region: 'us' } };
    expect(evaluateConditions([pg, eu], 'all', alert).matched).toBe(false);
    expect(evaluateConditions([pg, eu], 'any', alert).matched).toBe(true);
    expect(evaluateConditions([pg, eu], 'any', { summary: 'disk' }).matched).toBe(false);
    expect(evaluateConditions([], 'all', {}).matched).toBe(true);
  });

  it('runs a regex on a payload number as its JSON text, and never on an object', () => {
    const regex = (pattern: string) =>
      toEngineCondition(
        condition({
          property_field_type: 'payload',
          property_field_name: '$.code',
          property_field_condition_type: 'matches_regex',
          property_field_value: pattern,
        }),
      );
    expect(evaluateConditions([regex('^5\\d\\d$')], 'all', { payload: { code: 503 } }).matched).toBe(true);
    expect(evaluateConditions([regex('^5\\d\\d$')], 'all', { payload: { code: { value: 503 } } }).matched).toBe(false);
    expect(evaluateConditions([regex('.*')], 'all', { payload: {} }).matched).toBe(false);
  });
});

describe('alert group condition checks', () => {
  const parse = (c: Record<string, unknown>) => groupConditionsSchema.safeParse([c]);
  const paths = (c: Record<string, unknown>) => {
    const r = parse(c);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('/'));
  };

  it('points each problem at the field written', () => {
    expect(
      paths({
        property_field_type: 'attribute',
        property_field_name: 'severity',
        property_field_condition_type: 'contains',
        property_field_value: 'a',
      }),
    ).toEqual(['0/property_field_name']);
    expect(
      paths({
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'matches_regex',
        property_field_values: ['ok', '(x'],
      }),
    ).toEqual(['0/property_field_values/1']);
    expect(
      paths({
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'matches_regex',
        property_field_value: '(x',
      }),
    ).toEqual(['0/property_field_value']);
    expect(paths({ property_field_type: 'payload', property_field_name: '$.a', property_field_condition_type: 'contains' })).toEqual([
      '0/property_field_values',
    ]);
    expect(paths({ property_field_type: 'alert_field', property_field_condition_type: 'is_empty' })).toEqual(['0/conditionable_id']);
    expect(
      paths({
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'is_empty',
        alert_urgency_ids: [randomUUID()],
      }),
    ).toEqual(['0/alert_urgency_ids']);
    expect(
      paths({ property_field_type: 'attribute', property_field_name: 'alert_urgency', property_field_condition_type: 'is_one_of' }),
    ).toEqual(['0/alert_urgency_ids']);
    expect(
      paths({
        property_field_type: 'attribute',
        property_field_name: 'alert_urgency',
        property_field_condition_type: 'starts_with',
        property_field_value: 'h',
      }),
    ).toEqual(['0/property_field_condition_type']);
    expect(
      paths({
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'is_empty',
        conditionable_type: 'AlertField',
      }),
    ).toEqual(['0/conditionable_type']);
  });

  it('stores one shape: lists present, ids in lower case, AlertField filled in for alert_field conditions', () => {
    const id = randomUUID();
    const r = parse({
      property_field_type: 'alert_field',
      conditionable_id: 'F1',
      property_field_condition_type: 'is_one_of',
      property_field_values: ['x'],
    });
    expect(r.success && r.data[0]).toEqual({
      property_field_type: 'alert_field',
      property_field_condition_type: 'is_one_of',
      property_field_name: null,
      property_field_value: null,
      property_field_values: ['x'],
      alert_urgency_ids: null,
      conditionable_type: 'AlertField',
      conditionable_id: 'F1',
    });
    const u = parse({
      property_field_type: 'attribute',
      property_field_name: 'alert_urgency',
      property_field_condition_type: 'is_one_of',
      alert_urgency_ids: [id.toUpperCase()],
    });
    expect(u.success && u.data[0].alert_urgency_ids).toEqual([id]);
  });
});

describe('legacy grouping attributes', () => {
  const summary = condition({
    property_field_type: 'attribute',
    property_field_name: 'summary',
    property_field_condition_type: 'contains',
    property_field_value: 'x',
  });

  it('maps 1/0 and json paths onto matches_existing_alert conditions and reads them back', () => {
    const on = applyLegacy([summary], {
      group_by_alert_title: 1,
      group_by_alert_urgency: 1,
      attributes: [{ json_path: '$.host' }, { json_path: '$.host' }],
    });
    expect(on.map((c) => [c.property_field_type, c.property_field_name, c.property_field_condition_type])).toEqual([
      ['attribute', 'summary', 'contains'],
      ['attribute', 'summary', 'matches_existing_alert'],
      ['attribute', 'alert_urgency', 'matches_existing_alert'],
      ['payload', '$.host', 'matches_existing_alert'],
    ]);
    expect(legacyOf(on)).toEqual({ group_by_alert_title: true, group_by_alert_urgency: true, attributes: [{ json_path: '$.host' }] });
    // Applying the same again changes nothing; 0 and [] take them away; what is not sent stays.
    expect(applyLegacy(on, { group_by_alert_title: 1, attributes: [{ json_path: '$.host' }] })).toEqual(on);
    const off = applyLegacy(on, { group_by_alert_title: 0, attributes: [] });
    expect(legacyOf(off)).toEqual({ group_by_alert_title: false, group_by_alert_urgency: true, attributes: [] });
    expect(off[0]).toBe(summary);
    expect(legacyOf([summary])).toEqual({ group_by_alert_title: false, group_by_alert_urgency: false, attributes: [] });
  });
});
