import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall();
  await seedUsers(
    h.db.knex as Knex,
    [11, 12].map((user_id) => ({ team_id: 1, user_id })),
  );
});
afterAll(async () => h?.close());

const doc = (type: string, attributes: Record<string, unknown>) => ({ body: { data: { type, attributes } } });
const created = async (path: string, type: string, attributes: Record<string, unknown>) => {
  const res = await h.call('POST', path, doc(type, attributes));
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id as string;
};
const token = (scopes: string[]) => ({ role: 'user', on_call_role: 'user', credential: { type: 'oauth', client_id: 'c1' }, scopes });

// An include reads what it loads on the caller's behalf: records of another resource need that resource's scope.
describe('includes of on-call records', () => {
  it('gives shift_override (override shifts, oc.shift_overrides) only to a token that may read override shifts', async () => {
    const scheduleId = await created('/v1/schedules', 'schedules', { name: 'Include scopes', owner_user_id: 11 });
    const overrideId = await created(`/v1/schedules/${scheduleId}/override_shifts`, 'shifts', {
      starts_at: '2026-10-14T10:00:00Z',
      ends_at: '2026-10-15T10:00:00Z',
      user_id: 12,
    });
    const shifts = `/v1/shifts?from=2026-10-14T00:00:00Z&to=2026-10-16T00:00:00Z&schedule_ids[]=${scheduleId}`;
    const schedulesOnly = token(['oc.schedules:read']);

    const direct = await h.call('GET', `/v1/override_shifts/${overrideId}`, { principal: schedulesOnly });
    expect(direct.status).toBe(403);
    expect((await h.call('GET', shifts, { principal: schedulesOnly })).status).toBe(200);
    const included = await h.call('GET', `${shifts}&include=shift_override`, { principal: schedulesOnly });
    expect(included.status).toBe(403);
    expect(included.body.errors[0]).toMatchObject({ code: 'insufficient_scope', detail: direct.body.errors[0].detail });
    // Users are readable by every credential of the team (docs/security.md, "Includes are reads"):
    // that include needs nothing more.
    expect((await h.call('GET', `${shifts}&include=user`, { principal: schedulesOnly })).status).toBe(200);

    const both = await h.call('GET', `${shifts}&include=shift_override`, {
      principal: token(['oc.schedules:read', 'oc.shift_overrides:read']),
    });
    expect(both.status).toBe(200);
    expect(both.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([['shift_overrides', overrideId]]);
  });

  it('gives a record-scoped key only the override shifts it lists, as their own path does', async () => {
    const scheduleId = await created('/v1/schedules', 'schedules', { name: 'Include record list', owner_user_id: 11 });
    const overrideId = await created(`/v1/schedules/${scheduleId}/override_shifts`, 'shifts', {
      starts_at: '2026-10-20T10:00:00Z',
      ends_at: '2026-10-21T10:00:00Z',
      user_id: 12,
    });
    const shifts = `/v1/shifts?from=2026-10-20T00:00:00Z&to=2026-10-22T00:00:00Z&schedule_ids[]=${scheduleId}&include=shift_override`;
    const keyOf = (recordIds: string[]) => ({
      role: 'user',
      on_call_role: 'user',
      credential: { type: 'api_key', id: 'k', kind: 'record' },
      record_ids: recordIds,
    });

    const scheduleOnly = keyOf([scheduleId]);
    expect((await h.call('GET', `/v1/override_shifts/${overrideId}`, { principal: scheduleOnly })).status).toBe(404);
    const narrowed = await h.call('GET', shifts, { principal: scheduleOnly });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data.some((s: { attributes: { is_override: boolean } }) => s.attributes.is_override)).toBe(true);
    expect(narrowed.body.included ?? []).toEqual([]);

    const listing = await h.call('GET', shifts, { principal: keyOf([scheduleId, overrideId]) });
    expect((listing.body.included ?? []).map((r: { id: string }) => r.id)).toEqual([overrideId]);
  });
});
