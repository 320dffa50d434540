import { alertInputSchema, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH } from '../../src/domain/matching/index.js';
import { FULL } from './matching-fixtures.js';

/** `depth` arrays, one inside the other. */
const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

const paths = (value: unknown) => {
  const parsed = alertInputSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('/'));
};

describe('alertInputSchema', () => {
  it('accepts an alert with every member, and an empty one', () => {
    expect(paths(FULL)).toEqual([]);
    expect(paths({})).toEqual([]);
  });

  it.each([
    ['a record id that is not a UUID', { urgency_id: 'high' }, ['urgency_id']],
    ['a service id that is not a UUID', { service_ids: ['x'] }, ['service_ids/0']],
    ['an unknown member', { severity: 'high' }, ['']],
    ['a field value that is not text', { fields: { f: 1 } }, ['fields/f']],
    ['a payload over the bound', { payload: { big: 'x'.repeat(MAX_PAYLOAD_BYTES) } }, ['payload']],
    ['a payload that is not JSON', { payload: { at: new Date() } }, ['payload']],
    ['a payload nested deeper than the bound', { payload: nested(MAX_PAYLOAD_DEPTH + 1) }, ['payload']],
    ['a payload nested 200 000 levels (no stack overflow)', { payload: nested(200_000) }, ['payload']],
  ])('refuses %s', (_name, alert, expected) => {
    expect(paths(alert)).toEqual(expected);
  });

  it('takes a field as long as the pathological regex case needs', () => {
    expect(paths({ fields: { f: 'a'.repeat(50_000) + '!' }, payload: { m: 'a'.repeat(50_000) + '!' } })).toEqual([]);
    expect(paths({ payload: nested(MAX_PAYLOAD_DEPTH) })).toEqual([]);
  });
});
