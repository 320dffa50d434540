import { randomUUID } from 'node:crypto';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;
let id: string;

beforeAll(async () => {
  h = await startOnCall();
  id = (
    await h.create('alert_groups', {
      name: 'Target',
      conditions: [{ property_field_type: 'payload', property_field_name: '$.a', property_field_condition_type: 'is_empty' }],
    })
  ).body.data.id;
});

afterAll(async () => h?.close());

const long = 'x'.repeat(20_000);

/** Bodies a client may get wrong in every way; each must be a 4xx that changes nothing. */
const badAttributes: unknown[] = [
  { name: null },
  { name: 5 },
  { name: long },
  { description: long },
  { time_window: 1.5 },
  { time_window: '30' },
  { time_window: -1 },
  { condition_type: null },
  { targets: {} },
  { targets: [null] },
  { targets: ['Service'] },
  { targets: [{ target_type: 'Service' }] },
  { targets: Array.from({ length: 51 }, () => ({ target_type: 'Service', target_id: randomUUID() })) },
  { conditions: {} },
  { conditions: [null] },
  { conditions: ['x'] },
  { conditions: [{}] },
  {
    conditions: [
      { id: 'not-a-uuid', property_field_type: 'payload', property_field_name: '$.a', property_field_condition_type: 'is_empty' },
    ],
  },
  {
    conditions: [
      { id: randomUUID(), property_field_type: 'payload', property_field_name: '$.a', property_field_condition_type: 'is_empty' },
    ],
  },
  {
    conditions: [
      { property_field_type: 'payload', property_field_name: '$[?match(@.a, "(a+)+$")]', property_field_condition_type: 'is_empty' },
    ],
  },
  {
    conditions: [
      {
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'matches_regex',
        property_field_value: '(?<=a)b',
      },
    ],
  },
  {
    conditions: [
      {
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'contains',
        property_field_values: Array(51).fill('v'),
      },
    ],
  },
  {
    conditions: Array.from({ length: 51 }, () => ({
      property_field_type: 'payload',
      property_field_name: '$.a',
      property_field_condition_type: 'is_empty',
    })),
  },
  {
    conditions: [
      {
        property_field_type: 'payload',
        property_field_name: '$.a',
        property_field_condition_type: 'is_empty',
        conditionable_type: 'AlertField',
      },
    ],
  },
  { group_by_alert_title: 2 },
  { group_by_alert_urgency: '1' },
  { attributes: [{}] },
  { attributes: 'x' },
  { deleted_at: null },
  { slug: 'x' },
  { created_at: '2020-01-01T00:00:00Z' },
];

describe('alert groups never answer 5xx to a bad request', () => {
  it.each(badAttributes.map((a) => [JSON.stringify(a).slice(0, 120), a]))('create and PATCH with %s are 422', async (_, attributes) => {
    const create = await h.create('alert_groups', { name: `n-${randomUUID()}`, ...(attributes as object) });
    expect(create.status).toBe(422);
    expect(create.body.errors[0].source.pointer).toMatch(/^\/data/);
    const update = await h.call('PATCH', `/v1/alert_groups/${id}`, { body: { data: { type: 'alert_groups', attributes } } });
    expect(update.status).toBe(422);
  });

  it('refuses malformed documents and queries with 4xx, and nothing changed', async () => {
    const answers = await Promise.all([
      h.call('POST', '/v1/alert_groups', { body: '{' }),
      h.call('POST', '/v1/alert_groups', { body: { data: { type: 'alert_urgencies', attributes: { name: 'x' } } } }),
      h.call('POST', '/v1/alert_groups', { body: { data: [] } }),
      h.call('POST', '/v1/alert_groups', { body: { name: 'x' }, headers: { 'content-type': 'application/json' } }),
      h.call('PATCH', `/v1/alert_groups/${id}`, { body: { data: { id: randomUUID(), type: 'alert_groups', attributes: { name: 'y' } } } }),
      h.call('PATCH', `/v1/alert_groups/${randomUUID()}`, { body: { data: { type: 'alert_groups', attributes: { name: 'y' } } } }),
      h.call('GET', '/v1/alert_groups?filter[name][like]=x'),
      h.call('GET', '/v1/alert_groups?filter[time_window]=5'),
      h.call('GET', '/v1/alert_groups?sort=secret'),
      h.call('GET', `/v1/alert_groups/${'a'.repeat(300)}`),
      h.call('POST', '/v1/alert_groups/evaluate', {
        body: { data: { type: 'alert_group_evaluations', attributes: { alert: { payload: { big: long.repeat(10) } } } } },
      }),
      h.call('POST', '/v1/alert_groups/evaluate', {
        body: { data: { type: 'alert_group_evaluations', attributes: { alert: {}, existing_alerts: [{ summary: 'no group' }] } } },
      }),
    ]);
    answers.forEach((res, i) => {
      expect([i, res.status >= 400 && res.status < 500, res.body]).toEqual([i, true, expect.anything()]);
    });
    const group = await h.call('GET', `/v1/alert_groups/${id}`);
    expect(group.body.data.attributes).toMatchObject({ name: 'Target', time_window: 60 });
    expect(group.body.data.attributes.conditions).toHaveLength(1);
    expect((await h.call('GET', '/v1/alert_groups')).body.data).toHaveLength(1);
  });
});
