import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedTeam } from './support/teams.fixture.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
const OTHER_TEAM = { team_id: 2 };

beforeAll(async () => {
  h = await startOnCall();
  await seedUsers(
    h.db.knex as Knex,
    [11, 12, 14, 15].map((user_id) => ({ team_id: 1, user_id })),
  );
});
afterAll(async () => h?.close());

const doc = (type: string, attributes: Record<string, unknown>) => ({ body: { data: { type, attributes } } });

async function created(path: string, type: string, attributes: Record<string, unknown>): Promise<string> {
  const res = await h.call('POST', path, doc(type, attributes));
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id;
}

/** A schedule with one rotation and its members in turn order. */
async function scheduleWith(rotation: Record<string, unknown>, members: number[]): Promise<{ scheduleId: string; rotationId: string }> {
  const scheduleId = await created('/v1/schedules', 'schedules', { name: `S ${randomUUID().slice(0, 6)}`, owner_user_id: 11 });
  const rotationId = await created(`/v1/schedules/${scheduleId}/schedule_rotations`, 'schedule_rotations', {
    name: 'Primary',
    ...rotation,
  });
  for (const user_id of members)
    await created(`/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, 'schedule_rotation_users', { user_id });
  return { scheduleId, rotationId };
}

const berlinWeekly = {
  schedule_rotationable_type: 'ScheduleWeeklyRotation',
  schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
  time_zone: 'Europe/Berlin',
  start_time: '2026-09-28T09:00:00+02:00',
};
const OCTOBER = 'from=2026-10-01T00:00:00%2B02:00&to=2026-11-01T00:00:00%2B01:00';
const hours = (a: { starts_at: string; ends_at: string }) => (Date.parse(a.ends_at) - Date.parse(a.starts_at)) / 3_600_000;

describe('GET /v1/shifts', () => {
  let berlin: { scheduleId: string; rotationId: string };
  beforeAll(async () => {
    berlin = await scheduleWith(berlinWeekly, [11, 12, 14]);
  });

  it('answers the hand-computed October of a Berlin weekly rotation of three, whole at both edges, 169 hours across the change, with meta and no links', async () => {
    const res = await h.call('GET', `/v1/shifts?${OCTOBER}&schedule_ids[]=${berlin.scheduleId}`);
    expect(res.status).toBe(200);
    expect(res.body.links).toBeUndefined();
    expect(res.body.meta).toEqual({ current_page: 1, next_page: null, prev_page: null, total_count: 5, total_pages: 1 });
    expect(
      res.body.data.map((s: { attributes: Record<string, unknown> }) => [
        s.attributes.user_id,
        s.attributes.starts_at,
        s.attributes.ends_at,
        hours(s.attributes as never),
      ]),
    ).toEqual([
      [11, '2026-09-28T07:00:00.000Z', '2026-10-05T07:00:00.000Z', 168],
      [12, '2026-10-05T07:00:00.000Z', '2026-10-12T07:00:00.000Z', 168],
      [14, '2026-10-12T07:00:00.000Z', '2026-10-19T07:00:00.000Z', 168],
      [11, '2026-10-19T07:00:00.000Z', '2026-10-26T08:00:00.000Z', 169],
      [12, '2026-10-26T08:00:00.000Z', '2026-11-02T08:00:00.000Z', 168],
    ]);
    expect(res.body.data[0]).toMatchObject({
      type: 'shifts',
      attributes: { schedule_id: berlin.scheduleId, rotation_id: berlin.rotationId, is_override: false, is_shadow: false },
      relationships: {
        shift_override: { data: null },
        user: { data: { id: '11', type: 'users' } },
        assignee: { data: { id: '11', type: 'users' } },
      },
    });
    // Ids are stable: the same shift in another range has the same id.
    const again = await h.call('GET', `/v1/shifts?from=2026-10-20T00:00:00Z&to=2026-10-21T00:00:00Z&schedule_ids[]=${berlin.scheduleId}`);
    expect(again.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.data[3].id]);
  });

  it('lets an override shift win over the rotation, cutting its shift around it', async () => {
    const overrideId = await created(`/v1/schedules/${berlin.scheduleId}/override_shifts`, 'shifts', {
      starts_at: '2026-10-14T10:00:00Z',
      ends_at: '2026-10-15T10:00:00Z',
      user_id: 15,
    });
    const res = await h.call('GET', `/v1/shifts?from=2026-10-13T00:00:00Z&to=2026-10-17T00:00:00Z&schedule_ids[]=${berlin.scheduleId}`);
    expect(
      res.body.data.map((s: { id: string; attributes: Record<string, unknown>; relationships: { shift_override: { data: unknown } } }) => [
        s.attributes.user_id,
        s.attributes.starts_at,
        s.attributes.ends_at,
        s.attributes.is_override,
        s.relationships.shift_override.data,
      ]),
    ).toEqual([
      [14, '2026-10-12T07:00:00.000Z', '2026-10-14T10:00:00.000Z', false, null],
      [15, '2026-10-14T10:00:00.000Z', '2026-10-15T10:00:00.000Z', true, { id: overrideId, type: 'shift_overrides' }],
      [14, '2026-10-15T10:00:00.000Z', '2026-10-19T07:00:00.000Z', false, null],
    ]);
    expect(res.body.data[1]).toMatchObject({ id: overrideId, attributes: { rotation_id: null } });
    const onlyOverrider = await h.call('GET', `/v1/shifts?from=2026-10-13T00:00:00Z&to=2026-10-17T00:00:00Z&user_ids[]=15`);
    expect(onlyOverrider.body.data.map((s: { id: string }) => s.id)).toEqual([overrideId]);
    expect((await h.call('DELETE', `/v1/override_shifts/${overrideId}`)).status).toBe(200);
  });

  it('includes the user (deprecated name) and the assignee from the users read model, and the override', async () => {
    const overrideId = await created(`/v1/schedules/${berlin.scheduleId}/override_shifts`, 'shifts', {
      starts_at: '2026-10-14T10:00:00Z',
      ends_at: '2026-10-15T10:00:00Z',
      user_id: 15,
    });
    // Deleted in auth since: the override keeps its user, whose included resource says so.
    await (h.db.knex as Knex)('users').where({ team_id: 1, user_id: 15 }).update({ deleted_at: new Date() });
    const range = `from=2026-10-13T00:00:00Z&to=2026-10-17T00:00:00Z&schedule_ids[]=${berlin.scheduleId}`;
    const res = await h.call('GET', `/v1/shifts?${range}&include=user,assignee,shift_override,shift_shadow`);
    expect(res.status).toBe(200);
    const included = res.body.included.map((i: { type: string; id: string; attributes: Record<string, unknown> }) => [
      i.type,
      i.id,
      i.attributes.deleted ?? null,
    ]);
    expect(included).toEqual(
      expect.arrayContaining([
        ['users', '14', false],
        ['users', '15', true],
        ['shift_overrides', overrideId, null],
      ]),
    );
    expect(included).toHaveLength(3);
    // The reference's shift_override: the shift and who created it (the caller, user 1).
    expect(res.body.included.find((i: { type: string }) => i.type === 'shift_overrides').attributes).toEqual({
      shift_id: overrideId,
      created_by_user_id: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // Created by a key acting for no user (or before migration 0092): the schedule's owner, never null.
    await (h.db.knex as Knex)('override_shifts').where({ id: overrideId }).update({ created_by_user_id: null });
    const byNoUser = await h.call('GET', `/v1/shifts?${range}&include=shift_override`);
    expect(byNoUser.body.included.find((i: { type: string }) => i.type === 'shift_overrides').attributes.created_by_user_id).toBe(11);
    expect((await h.call('GET', `/v1/shifts?${range}`)).body.included).toBeUndefined();
    expect((await h.call('DELETE', `/v1/override_shifts/${overrideId}`)).status).toBe(200);
  });

  it("answers one schedule's shifts at /v1/schedules/{id}/shifts, a 404 for a schedule the caller cannot see", async () => {
    const res = await h.call('GET', `/v1/schedules/${berlin.scheduleId}/shifts?${OCTOBER}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
    expect(new Set(res.body.data.map((s: { attributes: { schedule_id: string } }) => s.attributes.schedule_id))).toEqual(
      new Set([berlin.scheduleId]),
    );
    expect((await h.call('GET', `/v1/schedules/${berlin.scheduleId}/shifts?${OCTOBER}`, { principal: OTHER_TEAM })).status).toBe(404);
    expect((await h.call('GET', `/v1/schedules/${randomUUID()}/shifts?${OCTOBER}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/schedules/not-a-uuid/shifts?${OCTOBER}`)).status).toBe(404);
  });

  it('reads the seven days from either bound sent alone, and the next seven days without a range', async () => {
    const ids = (res: { body: { data: { attributes: { starts_at: string } }[] } }) => res.body.data.map((s) => s.attributes.starts_at);
    const path = `/v1/schedules/${berlin.scheduleId}/shifts`;
    const week = await h.call('GET', `${path}?from=2026-10-05T00:00:00Z&to=2026-10-12T00:00:00Z`);
    expect(week.status).toBe(200);
    expect(ids(week).length).toBeGreaterThan(0);
    expect(ids(await h.call('GET', `${path}?from=2026-10-05T00:00:00Z`))).toEqual(ids(week));
    expect(ids(await h.call('GET', `${path}?to=2026-10-12T00:00:00Z`))).toEqual(ids(week));
    const now = await h.call('GET', '/v1/shifts');
    expect(now.status).toBe(200);
    const horizon = Date.now() + 8 * 86_400_000;
    for (const shift of now.body.data) expect(Date.parse(shift.attributes.starts_at)).toBeLessThan(horizon);
  });

  it('shows a group key only the shifts of schedules its groups own, a record-scoped key those of the schedules it names', async () => {
    const ops = await seedTeam(h.db.knex as Knex);
    const group = { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [ops] };
    const daily = {
      schedule_rotationable_type: 'ScheduleDailyRotation',
      schedule_rotationable_attributes: { handoff_time: '00:00' },
      start_time: '2026-01-01T00:00:00Z',
    };
    const ours = await scheduleWith(daily, [11]);
    await h.call('PUT', `/v1/schedules/${ours.scheduleId}`, doc('schedules', { owner_group_ids: [ops] }));
    const day = 'from=2026-10-20T10:00:00Z&to=2026-10-20T11:00:00Z';
    const seen = async (principal: Record<string, unknown>, query = day) =>
      new Set(
        (await h.call('GET', `/v1/shifts?${query}`, { principal })).body.data.map(
          (s: { attributes: { schedule_id: string } }) => s.attributes.schedule_id,
        ),
      );
    // The team's own key sees both schedules at that hour.
    expect(await seen({})).toEqual(new Set([ours.scheduleId, berlin.scheduleId]));
    expect(await seen(group)).toEqual(new Set([ours.scheduleId]));
    // Asking for another schedule by id does not reach past the groups.
    expect(await seen(group, `${day}&schedule_ids[]=${berlin.scheduleId}`)).toEqual(new Set());
    expect((await h.call('GET', `/v1/schedules/${berlin.scheduleId}/shifts?${day}`, { principal: group })).status).toBe(404);
    const recordKey = { credential: { type: 'api_key', id: 'record-key', kind: 'record' }, record_ids: [ours.scheduleId] };
    expect(await seen(recordKey)).toEqual(new Set([ours.scheduleId]));
    expect((await h.call('DELETE', `/v1/schedules/${ours.scheduleId}`)).status).toBe(200);
  });

  it('pages with page[size] (default 50, at most 1000) and page[number]', async () => {
    const daily = await scheduleWith(
      {
        schedule_rotationable_type: 'ScheduleDailyRotation',
        schedule_rotationable_attributes: { handoff_time: '00:00' },
        start_time: '2026-01-01T00:00:00Z',
      },
      [11, 12],
    );
    const range = `from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:00Z&schedule_ids[]=${daily.scheduleId}`;
    const first = await h.call('GET', `/v1/shifts?${range}`);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_count: 120, total_pages: 3 });
    const last = await h.call('GET', `/v1/shifts?${range}&page[number]=3&page[size]=50`);
    expect(last.body.data).toHaveLength(20);
    expect(last.body.data[19].attributes.starts_at).toBe('2026-04-30T00:00:00.000Z');
    expect((await h.call('GET', `/v1/shifts?${range}&page[size]=1000`)).body.data).toHaveLength(120);
    expect((await h.call('GET', `/v1/shifts?${range}&page[size]=1001`)).status).toBe(400);
    // Both schedules of the team, none of another team's.
    const both = await h.call('GET', `/v1/shifts?from=2026-10-05T12:00:00Z&to=2026-10-05T13:00:00Z`);
    expect(new Set(both.body.data.map((s: { attributes: { schedule_id: string } }) => s.attributes.schedule_id))).toEqual(
      new Set([berlin.scheduleId, daily.scheduleId]),
    );
    expect(
      (await h.call('GET', `/v1/shifts?from=2026-10-05T12:00:00Z&to=2026-10-05T13:00:00Z`, { principal: OTHER_TEAM })).body.data,
    ).toEqual([]);
  });

  it.each([
    ['to before from', 'from=2026-10-02T00:00:00Z&to=2026-10-01T00:00:00Z', 'to', /must be after from/],
    ['to equal to from', 'from=2026-10-02T00:00:00Z&to=2026-10-02T00:00:00Z', 'to', /must be after from/],
    ['a range longer than 366 days', 'from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:01Z', 'to', /longer than 366 days/],
    ['a time without zone', 'from=2026-10-01T00:00:00&to=2026-10-02T00:00:00Z', 'from', /ISO 8601/],
    ['a date only', 'from=2026-10-01&to=2026-10-02T00:00:00Z', 'from', /ISO 8601/],
    ['an impossible date', 'from=2026-02-30T00:00:00Z&to=2026-10-02T00:00:00Z', 'from', /ISO 8601/],
    ['hour 24', 'from=2026-10-01T24:00:00Z&to=2026-10-03T00:00:00Z', 'from', /hour 00-23/],
    ['an offset of +99:99', 'from=2026-10-01T00:00:00%2B99:99&to=2026-10-03T00:00:00Z', 'from', /±18:00/],
    ['an offset of -2400', 'from=2026-10-01T00:00:00Z&to=2026-10-03T00:00:00-2400', 'to', /±18:00/],
    ['an offset past 18:00', 'from=2026-10-01T00:00:00%2B18:30&to=2026-10-03T00:00:00Z', 'from', /±18:00/],
    ['the year 9999', 'from=9999-12-01T00:00:00Z&to=9999-12-02T00:00:00Z', 'from', /1970-2199/],
    ['a year before 1970', 'from=1969-12-31T00:00:00Z&to=1970-01-02T00:00:00Z', 'from', /1970-2199/],
    ['a schedule id that is no UUID', 'from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&schedule_ids[]=abc', 'schedule_ids[]', /UUID/],
    ['a user id that is no integer', 'from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&user_ids[]=x', 'user_ids[]', /integer/],
    ['an unknown parameter', 'from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&until=x', 'until', /Unknown/],
    ['an unknown include', 'from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z&include=teams', 'include', /Cannot include/],
  ])('answers 400 naming the parameter for %s', async (_name, query, parameter, detail) => {
    const res = await h.call('GET', `/v1/shifts?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter });
    expect(res.body.errors[0].detail).toMatch(detail);
  });

  it('answers 400 rather than do more than 80,000 units (plus 20 a rotation) of work in one request', async () => {
    const hourly = {
      schedule_rotationable_type: 'ScheduleCustomRotation',
      schedule_rotationable_attributes: { shift_length: 1, shift_length_unit: 'hours', handoff_time: '00:00' },
      start_time: '2025-01-01T00:00:00Z',
    };
    const { scheduleId } = await scheduleWith(hourly, [11]);
    // 12 hourly rotations over 366 days: 105,408 turns, as many pieces.
    for (let i = 0; i < 11; i++) {
      const rotationId = await created(`/v1/schedules/${scheduleId}/schedule_rotations`, 'schedule_rotations', {
        name: `Hourly ${i}`,
        ...hourly,
      });
      await created(`/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, 'schedule_rotation_users', { user_id: 12 });
    }
    const year = `from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:00Z&schedule_ids[]=${scheduleId}`;
    const res = await h.call('GET', `/v1/shifts?${year}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ source: { parameter: 'to' }, code: 'range_too_large' });
    // 12 rotations: 80,000 + 12 × 20.
    expect(res.body.errors[0].detail).toMatch(/more than 80240 work units/);
    // A month of the same is fine (layered: the first rotation holds every hour).
    const month = await h.call(
      'GET',
      `/v1/shifts?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&schedule_ids[]=${scheduleId}&page[size]=1`,
    );
    expect(month.status).toBe(200);
    expect(month.body.meta.total_count).toBe(31 * 24);
    expect((await h.call('DELETE', `/v1/schedules/${scheduleId}`)).status).toBe(200);
  });

  it('leaves out a stored rotation whose time zone the runtime no longer knows, and answers the rest (not a 500)', async () => {
    const { scheduleId, rotationId } = await scheduleWith(berlinWeekly, [11]);
    const other = await scheduleWith(berlinWeekly, [12]);
    await (h.db.knex as Knex)('schedule_rotations').where({ id: rotationId }).update({ time_zone: 'Mars/Olympus_Mons' });
    const res = await h.call('GET', `/v1/shifts?${OCTOBER}&schedule_ids[]=${scheduleId}&schedule_ids[]=${other.scheduleId}`);
    expect(res.status).toBe(200);
    expect(new Set(res.body.data.map((s: { attributes: { rotation_id: string } }) => s.attributes.rotation_id))).toEqual(
      new Set([other.rotationId]),
    );
    for (const id of [scheduleId, other.scheduleId]) expect((await h.call('DELETE', `/v1/schedules/${id}`)).status).toBe(200);
  });

  it('accepts exactly 366 days and a numeric offset', async () => {
    expect((await h.call('GET', '/v1/shifts?from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:00Z&page[size]=1')).status).toBe(200);
    expect((await h.call('GET', '/v1/shifts?from=2026-01-01T00:00:00-0500&to=2026-01-01T18:30:01%2B05:30')).status).toBe(200);
    expect((await h.call('GET', '/v1/shifts?from=2199-12-30T00:00:00%2B18:00&to=2199-12-31T23:59:59-18:00')).status).toBe(200);
    // The same instants the other way round: to is before from.
    expect((await h.call('GET', '/v1/shifts?from=2026-01-01T00:00:00-0500&to=2026-01-01T10:29:59%2B05:30')).status).toBe(400);
  });
});
