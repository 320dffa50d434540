import { randomUUID } from 'node:crypto';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;
let high: string;
let low: string;
const service = randomUUID();

const evaluate = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', '/v1/alert_groups/evaluate', { body: { data: { type: 'alert_group_evaluations', attributes } }, principal });

const summary = (op: string, value: string) => ({
  property_field_type: 'attribute',
  property_field_name: 'summary',
  property_field_condition_type: op,
  property_field_value: value,
});
const urgency = (op: string, ids: string[]) => ({
  property_field_type: 'attribute',
  property_field_name: 'alert_urgency',
  property_field_condition_type: op,
  alert_urgency_ids: ids,
});

const group = async (attributes: Record<string, unknown>) => {
  const res = await h.create('alert_groups', attributes);
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};

let dbGroup: string;
let anyGroup: string;
let sameHost: string;
let catchAll: string;

beforeAll(async () => {
  h = await startOnCall();
  high = (await h.create('alert_urgencies', { name: 'High', description: 'now' })).body.data.id;
  low = (await h.create('alert_urgencies', { name: 'Low', description: 'later' })).body.data.id;
  // Oldest first: each is tried before the ones made after it.
  dbGroup = await group({
    name: 'DB on the service',
    targets: [{ target_type: 'Service', target_id: service }],
    conditions: [summary('contains', 'postgres'), urgency('is_one_of', [high])],
  });
  anyGroup = await group({
    name: 'Disk or low',
    condition_type: 'any',
    conditions: [summary('starts_with', 'disk'), urgency('is_one_of', [low])],
  });
  sameHost = await group({
    name: 'Same host',
    conditions: [
      { property_field_type: 'payload', property_field_name: '$.host', property_field_condition_type: 'matches_existing_alert' },
    ],
  });
  catchAll = await group({
    name: 'Regex',
    conditions: [
      {
        property_field_type: 'payload',
        property_field_name: '$.message',
        property_field_condition_type: 'matches_regex',
        property_field_value: '(a+)+$',
      },
    ],
  });
});

afterAll(async () => h?.close());

describe('POST /v1/alert_groups/evaluate', () => {
  it('names the first group, oldest first, whose targets and conditions the alert meets, and says why for each', async () => {
    const res = await evaluate({ alert: { summary: 'postgres down', urgency_id: high, service_ids: [service] } });
    expect(res.status).toBe(200);
    const { data } = res.body;
    expect(data).toMatchObject({ type: 'alert_group_evaluations', id: expect.any(String) });
    expect(data.attributes.alert_group_id).toBe(dbGroup);
    expect(data.attributes.alert_group).toMatchObject({ id: dbGroup, name: 'DB on the service', time_window: 60 });
    const first = data.attributes.groups[0];
    expect(first).toMatchObject({ alert_group_id: dbGroup, targeted: true, matched: true, condition_type: 'all' });
    expect(first.conditions.map((c: { matched: boolean }) => c.matched)).toEqual([true, true]);
    expect(first.conditions[1]).toMatchObject({
      property_field_type: 'attribute',
      property_field_name: 'alert_urgency',
      property_field_condition_type: 'is_one_of',
    });
    expect(data.attributes.groups.map((g: { alert_group_id: string }) => g.alert_group_id)).toEqual([
      dbGroup,
      anyGroup,
      sameHost,
      catchAll,
    ]);
  });

  it("skips a group whose targets are not the alert's, and needs all conditions under condition_type all", async () => {
    const off = await evaluate({ alert: { summary: 'postgres down', urgency_id: high } });
    expect(off.body.data.attributes.groups[0]).toMatchObject({ targeted: false, matched: false, conditions: [] });
    const half = await evaluate({ alert: { summary: 'postgres down', urgency_id: low, service_ids: [service.toUpperCase()] } });
    expect(half.body.data.attributes.groups[0]).toMatchObject({ targeted: true, matched: false });
    // Low urgency is enough for the match-any group.
    expect(half.body.data.attributes.alert_group_id).toBe(anyGroup);
  });

  it('matches an existing alert of the same group only', async () => {
    const alert = { summary: 'cpu', payload: { host: 'web-1' } };
    const none = await evaluate({ alert });
    expect(none.body.data.attributes.alert_group_id).toBeNull();
    const elsewhere = await evaluate({ alert, existing_alerts: [{ alert_group_id: anyGroup, payload: { host: 'web-1' } }] });
    expect(elsewhere.body.data.attributes.alert_group_id).toBeNull();
    const joined = await evaluate({ alert, existing_alerts: [{ alert_group_id: sameHost, payload: { host: 'web-1' } }] });
    expect(joined.body.data.attributes.alert_group_id).toBe(sameHost);
  });

  // Its time is checked once, at the engine (test/matching/rule-selector.test.ts): over HTTP a loaded CI machine adds its own noise.
  it("answers a pathological pattern, (a+)+$ against 50 000 a's and a !, with RE2: no match", async () => {
    const message = `${'a'.repeat(50_000)}!`;
    const res = await evaluate({ alert: { payload: { message } } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.groups.find((g: { alert_group_id: string }) => g.alert_group_id === catchAll).matched).toBe(false);
    const hit = await evaluate({ alert: { payload: { message: 'aaaa' } } });
    expect(hit.body.data.attributes.alert_group_id).toBe(catchAll);
  });

  it('refuses a malformed body with 422 and needs no write capability', async () => {
    expect((await evaluate({ alert: { summary: 5 } })).status).toBe(422);
    expect((await evaluate({ alert: {}, extra: true })).status).toBe(422);
    expect((await evaluate({ alert: { service_ids: ['svc'] } })).status).toBe(422);
    expect(
      (await h.call('POST', '/v1/alert_groups/evaluate', { body: { data: { type: 'alerts', attributes: { alert: {} } } } })).status,
    ).toBe(422);
    expect((await h.call('POST', '/v1/alert_groups/evaluate', { body: '{"data":' })).status).toBe(400);
    expect((await evaluate({ alert: {} }, { capabilities: ['read'] })).status).toBe(200);
    // Another team sees none of these groups.
    expect((await evaluate({ alert: { summary: 'disk full' } }, { team_id: 2 })).body.data.attributes).toEqual({
      alert_group_id: null,
      alert_group: null,
      groups: [],
    });
  });

  it("refuses with 422 an alert too costly to judge against the team's groups, and the next evaluation runs as usual", async () => {
    const team = { principal: { team_id: 4 } };
    const conditions = Array.from({ length: 20 }, (_, i) => ({
      property_field_type: 'payload',
      property_field_name: `$..k${i}`,
      property_field_condition_type: 'is_empty',
    }));
    expect((await h.create('alert_groups', { name: 'Costly', condition_type: 'any', conditions }, team)).status).toBe(201);
    const payload = { items: Array.from({ length: 2000 }, (_, i) => `value-${i}-${'a'.repeat(50)}`) };
    const res = await evaluate({ alert: { payload } }, team.principal);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'too_costly', source: { pointer: '/data/attributes/alert' } });
    expect((await evaluate({ alert: { payload: { k1: 'x' } } }, team.principal)).status).toBe(200);
  });

  it("takes no locks: it answers while a writer holds the team's groups and their conditions locked", async () => {
    await h.db.knex.transaction(async (tx) => {
      await tx.raw('select id from alert_groups for update');
      await tx.raw('select id from alert_group_conditions for update');
      const answered = await Promise.race([
        evaluate({ alert: { summary: 'disk full' } }).then((res) => res.status),
        new Promise((resolve) => {
          setTimeout(() => resolve('blocked'), 5_000);
        }),
      ]);
      expect(answered).toBe(200);
    });
  });
});
