import { z } from 'zod';
import { zodIssuesToValidation } from '@firewatch/jsonapi';
import {
  conditionProblems,
  conditionsSchema,
  GROUP_VOCABULARY,
  jsonPathIssue,
  regexIssue,
  RETRIGGER_VOCABULARY,
  type Condition,
} from '../../src/domain/matching/index.js';
import { U_HIGH } from './matching-fixtures.js';

const attributes = z.strictObject({ conditions: conditionsSchema(RETRIGGER_VOCABULARY) });

/** The pointers and details of the 422 a rule with these conditions would answer. */
function issues(conditions: unknown[]) {
  const parsed = attributes.safeParse({ conditions });
  return parsed.success ? [] : zodIssuesToValidation(parsed.error.issues, '/data/attributes');
}

const at = (pointer: string, detail: RegExp) => [expect.objectContaining({ pointer, detail: expect.stringMatching(detail) })];

describe('condition validation (re-trigger rules)', () => {
  it.each([
    ['urgency by record', { kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH] }],
    ['urgency set', { kind: 'urgency', operator: 'is_set' }],
    ['source by alias', { kind: 'source', operator: 'is_not_one_of', values: ['manual', 'api'] }],
    ['service unset, null lists', { kind: 'service', operator: 'is_not_set', record_ids: null, values: null, property_field_name: null }],
    ['group by record', { kind: 'group', operator: 'is_one_of', record_ids: [U_HIGH] }],
    ['alert field text', { kind: 'alert_field', operator: 'starts_with', property_field_name: 'field-id', values: ['prod'] }],
    ['payload regex', { kind: 'payload', operator: 'matches_regex', property_field_name: '$.priority', values: ['^P[12]$'] }],
    ['payload filter with length()', { kind: 'payload', operator: 'is_set', property_field_name: '$.tags[?length(@) > 2]' }],
    [
      'a pathological pattern (RE2 runs it in linear time)',
      { kind: 'payload', operator: 'matches_regex', property_field_name: '$.m', values: ['(a+)+$'] },
    ],
    ['an id sent back from a read', { id: U_HIGH, kind: 'urgency', operator: 'is_set' }],
  ])('accepts %s', (_name, condition) => {
    expect(issues([condition])).toEqual([]);
  });

  it.each([
    [
      'a kind outside the vocabulary',
      { kind: 'attribute', operator: 'is_set', property_field_name: 'summary' },
      '/0/kind',
      /Invalid option/,
    ],
    ['an unknown operator', { kind: 'urgency', operator: 'is_empty' }, '/0/operator', /Invalid option/],
    [
      'a text operator on urgency',
      { kind: 'urgency', operator: 'contains', values: ['x'] },
      '/0/operator',
      /urgency conditions take only is_one_of, is_not_one_of, is_set, is_not_set/,
    ],
    ['a regex on service', { kind: 'service', operator: 'matches_regex', values: ['x'] }, '/0/operator', /service conditions take only/],
    ['starts_with on source', { kind: 'source', operator: 'starts_with', values: ['x'] }, '/0/operator', /source conditions take only/],
    ['ends_with on group', { kind: 'group', operator: 'ends_with', values: ['x'] }, '/0/operator', /group conditions take only/],
    ['is_one_of without record ids', { kind: 'urgency', operator: 'is_one_of' }, '/0/record_ids', /needs at least one of the urgency ids/],
    ['a source without ids or aliases', { kind: 'source', operator: 'is_one_of', record_ids: [] }, '/0/record_ids', /alert source ids/],
    ['record ids that are not UUIDs', { kind: 'service', operator: 'is_one_of', record_ids: [U_HIGH, 'svc-1'] }, '/0/record_ids/1', /UUID/],
    [
      'values on a service',
      { kind: 'service', operator: 'is_one_of', record_ids: [U_HIGH], values: ['x'] },
      '/0/values',
      /not used by service conditions/,
    ],
    [
      'a property name on a group',
      { kind: 'group', operator: 'is_set', property_field_name: '$.x' },
      '/0/property_field_name',
      /not used by group conditions/,
    ],
    [
      'record ids on a payload',
      { kind: 'payload', operator: 'is_one_of', property_field_name: '$.a', values: ['x'], record_ids: [U_HIGH] },
      '/0/record_ids',
      /only by urgency, source, service and group/,
    ],
    ['a payload without path', { kind: 'payload', operator: 'is_set' }, '/0/property_field_name', /required for payload conditions/],
    [
      'an alert field without id',
      { kind: 'alert_field', operator: 'contains', property_field_name: '', values: ['x'] },
      '/0/property_field_name',
      /required/,
    ],
    [
      'a path that does not parse',
      { kind: 'payload', operator: 'is_set', property_field_name: '$.a[' },
      '/0/property_field_name',
      /not a valid JSON Path/,
    ],
    [
      'a path without root',
      { kind: 'payload', operator: 'is_set', property_field_name: 'priority' },
      '/0/property_field_name',
      /not a valid JSON Path/,
    ],
    [
      'a path with match()',
      { kind: 'payload', operator: 'is_set', property_field_name: "$[?match(@.a, '(a+)+$')]" },
      '/0/property_field_name',
      /function match\(\)/,
    ],
    [
      'a path with search()',
      { kind: 'payload', operator: 'is_set', property_field_name: "$[?search(@.a, 'x')]" },
      '/0/property_field_name',
      /function search\(\)/,
    ],
    [
      'a path that is too long',
      { kind: 'payload', operator: 'is_set', property_field_name: `$.${'a'.repeat(600)}` },
      '/0/property_field_name',
      /longer than 512|Too big/,
    ],
    [
      'contains without values',
      { kind: 'alert_field', operator: 'contains', property_field_name: 'f' },
      '/0/values',
      /contains needs at least one value/,
    ],
    [
      'is_set with values',
      { kind: 'payload', operator: 'is_set', property_field_name: '$.a', values: ['x'] },
      '/0/values',
      /not used with is_set/,
    ],
    [
      'is_not_set with record ids',
      { kind: 'urgency', operator: 'is_not_set', record_ids: [U_HIGH] },
      '/0/record_ids',
      /not used with is_not_set/,
    ],
    [
      'a pattern that does not compile',
      { kind: 'payload', operator: 'matches_regex', property_field_name: '$.a', values: ['ok', '(a'] },
      '/0/values/1',
      /missing closing \)/,
    ],
    [
      'a backreference',
      { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a)\\1'] },
      '/0/values/0',
      /not a valid RE2/,
    ],
    [
      'a lookahead',
      { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?=a)'] },
      '/0/values/0',
      /not a valid RE2/,
    ],
    [
      'a huge repeat',
      { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a{1000}){1000}'] },
      '/0/values/0',
      /invalid repeat count/,
    ],
    [
      'a pattern that compiles too large',
      { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['ok', '[a-x]{1000}'] },
      '/0/values/1',
      /too complex: it compiles to \d+ instructions, at most 1000/,
    ],
    [
      'a pattern over 256 characters',
      { kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['a'.repeat(257)] },
      '/0/values/0',
      /longer than 256/,
    ],
    [
      'a value over 1000 characters',
      { kind: 'alert_field', operator: 'contains', property_field_name: 'f', values: ['a'.repeat(1_001)] },
      '/0/values/0',
      /Too big/,
    ],
    ['an empty value', { kind: 'alert_field', operator: 'contains', property_field_name: 'f', values: [''] }, '/0/values/0', /Too small/],
    ['an unknown field', { kind: 'urgency', operator: 'is_set', weight: 1 }, '/0/weight', /Unknown attribute/],
    ['a condition that is not an object', 'urgency', '/0', /expected object/],
  ])('refuses %s at its field', (_name, condition, pointer, detail) => {
    expect(issues([condition])).toEqual(at(`/data/attributes/conditions${pointer}`, detail));
  });

  it('points at the condition it is about, among several', () => {
    const ok = { kind: 'urgency', operator: 'is_set' };
    const bad = { kind: 'payload', operator: 'matches_regex', property_field_name: '$.a', values: ['['] };
    expect(issues([ok, ok, bad])).toEqual(at('/data/attributes/conditions/2/values/0', /conditions\.2\.values\.0: is not a valid RE2/));
  });

  it("bounds the characters of a list's values and names together (evaluate loads every rule of a team)", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `${i}-`.padEnd(1_000, 'x'));
    const wide = (n: number) => ({ kind: 'payload', operator: 'is_one_of', property_field_name: '$.a', values: values(n) });
    expect(issues([wide(32)])).toEqual([]);
    expect(issues([wide(32), wide(1)])).toEqual(at('/data/attributes/conditions', /at most 32768 characters/));
  });

  it("refuses a condition id sent twice, at the repeat's id (ids compare case-insensitively)", () => {
    const kept = { id: U_HIGH, kind: 'urgency', operator: 'is_set' };
    expect(issues([kept, { ...kept, operator: 'is_not_set' }])).toEqual(at('/data/attributes/conditions/1/id', /id of condition 0 too/));
    expect(issues([kept, { ...kept, id: U_HIGH.toUpperCase() }])).toEqual(at('/data/attributes/conditions/1/id', /id of condition 0 too/));
    expect(issues([kept, { kind: 'urgency', operator: 'is_set' }, { kind: 'urgency', operator: 'is_set' }])).toEqual([]);
  });

  it('reports every problem of a condition', () => {
    const pointers = issues([
      { kind: 'payload', operator: 'matches_regex', property_field_name: 'nope', values: ['('], record_ids: [U_HIGH] },
    ]).map((i) => i.pointer);
    expect(pointers.sort()).toEqual([
      '/data/attributes/conditions/0/property_field_name',
      '/data/attributes/conditions/0/record_ids',
      '/data/attributes/conditions/0/values/0',
    ]);
  });

  it('normalises what it stores: lists always present, ids in lower case', () => {
    const parsed = attributes.parse({ conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH.toUpperCase()] }] });
    expect(parsed.conditions).toEqual([
      { kind: 'urgency', operator: 'is_one_of', record_ids: [U_HIGH], values: [], property_field_name: null },
    ]);
  });

  it('holds at most 20 patterns among all conditions', () => {
    const regex = (n: number) => ({
      kind: 'payload',
      operator: 'matches_regex',
      property_field_name: '$.a',
      values: Array.from({ length: n }, (_, i) => `^${i}$`),
    });
    expect(issues([regex(10), regex(10)])).toEqual([]);
    expect(issues([regex(10), regex(11)])).toEqual(at('/data/attributes/conditions', /at most 20 matches_regex patterns/));
  });

  it('holds at most 50 conditions', () => {
    expect(issues(Array.from({ length: 51 }, () => ({ kind: 'urgency', operator: 'is_set' })))).toEqual(
      at('/data/attributes/conditions', /Too big/),
    );
  });
});

describe('condition validation (alert groups vocabulary)', () => {
  const problems = (c: Condition) => conditionProblems(c, GROUP_VOCABULARY);

  it('takes the nine operators on attribute, payload and alert_field', () => {
    for (const operator of ['is_one_of', 'contains', 'matches_regex', 'is_empty', 'matches_existing_alert'] as const) {
      const values = ['is_empty', 'matches_existing_alert'].includes(operator) ? [] : ['x'];
      expect(problems({ kind: 'attribute', operator, property_field_name: 'summary', values })).toEqual([]);
    }
  });

  it('knows the attributes an attribute condition may name', () => {
    expect(problems({ kind: 'attribute', operator: 'is_empty', property_field_name: 'title' })).toEqual([
      { field: 'property_field_name', message: 'must be one of summary, description, external_url' },
    ]);
  });

  it('refuses kinds and operators the vocabulary lacks', () => {
    expect(problems({ kind: 'service', operator: 'is_one_of', record_ids: [U_HIGH] })[0]?.field).toBe('kind');
    expect(problems({ kind: 'payload', operator: 'is_set', property_field_name: '$.a' })[0]?.field).toBe('operator');
  });
});

describe('the checkers used on their own', () => {
  it('regexIssue: null for a usable pattern, a reason otherwise', () => {
    expect(regexIssue('^a+$')).toBeNull();
    expect(regexIssue('a'.repeat(257))).toMatch(/longer than 256/);
    expect(regexIssue('(?:[a-x]{10}){90}[yz]')).toBeNull();
    expect(regexIssue('(?:[a-x]{10}){100}[yz]')).toMatch(/too complex/);
  });

  it('regexIssue: refuses, before compiling, a case-insensitive pattern whose class ranges fold too much (30 ms a compile)', () => {
    const wide = '[a-zA-Z\\x{100}-\\x{10FFFF}]';
    expect(regexIssue(`(?i)${wide}`)).toBeNull();
    expect(regexIssue(`(?i)${wide.repeat(8)}`)).toMatch(/too costly to compile case-insensitively: its class ranges fold \d+ characters/);
    expect(regexIssue(wide.repeat(8))).toBeNull();
    expect(regexIssue('(?i)^(error|fatal) [a-z0-9._-]+ failed$')).toBeNull();
  });

  it('jsonPathIssue: null for a usable path, a reason otherwise', () => {
    expect(jsonPathIssue('$..team')).toBeNull();
    expect(jsonPathIssue('$[?foo(@)]')).toMatch(/not a valid JSON Path|function foo/);
  });

  it.each([
    '$..team',
    '$.items[*].name',
    "$['a','b']",
    "$.items[?@.severity == 'high' && @.service.id == $.service].name",
    '$..[?@.a]',
    '$[?length(@) == 2]',
    '$[?length(@.name) > 3]',
    '$[?count(@.a) == 1]',
    '$[?value(@.a) == 1]',
    '$[?length(value(@.a)) > 1]',
    '$.a[0:10:2]',
  ])('jsonPathIssue accepts %s', (path) => {
    expect(jsonPathIssue(path)).toBeNull();
  });

  // Judged on the parsed path: work that grows with the payload's size per node tested, or ill-typed calls that never match.
  it.each([
    ['nested descending filters', '$..[?@..[?@..[?@..[?@..[?@..*]]]]]', /only singular queries inside a filter/],
    ['a wildcard in a filter', '$[?@.*]', /only singular queries/],
    ['a descendant in a function', '$.a[?length(@..b) > 0]', /only singular queries/],
    ['a nested filter', '$[?@[?@.a]]', /only singular queries/],
    ['a slice in a filter', '$[?count(@[0:2]) > 1]', /only singular queries/],
    ['two descendant segments', '$..a..b', /2 descendant segments/],
    ['duplicating selectors', '$[*,*][*,*][*,*][*,*][*,*]', /up to 32 times/],
    ['length() of a node list', '$[?length(@.*) > 1]', /only singular queries/],
    ['count() of a literal', '$[?count(1) > 0]', /count\(\) on something other than a query/],
    ['length() with two arguments', '$[?length(@.a, 1) > 1]', /2 arguments/],
    ['value() of a node list', '$[?value(@.*) == 1]', /only singular queries/],
    ['a value function as a test', '$[?length(@.a)]', /gives a value/],
    ['count() of a test', '$[?count(@.a == 1) > 0]', /not a valid JSON Path|something other than a query/],
    ['match()', "$[?match(@.a, 'x')]", /function match\(\)/],
    ['too much work', `$.a${'[?@.a==1]'.repeat(40)}`, /too much work/],
  ])('jsonPathIssue refuses %s', (_name, path, reason) => {
    expect(jsonPathIssue(path)).toMatch(reason);
  });
});
