import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ONCALL_BOUNDS } from '../src/domain/escalation-plans/oncalls.entries.js';
import { seedPolicy } from './support/escalation-plans.fixture.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { createDailySchedule } from './support/schedules.fixture.js';
import { seedTeam } from './support/teams.fixture.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
let schedule: string;
let policy: { id: string; paths: string[] };
let theirs: string;
const SERVICE = randomUUID();

type Entry = {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { id: string } | null }>;
};

beforeAll(async () => {
  h = await startOnCall();
  const knex = h.db.knex as Knex;
  await seedUsers(knex, [...[21, 22, 23, 24].map((user_id) => ({ team_id: 1, user_id })), { team_id: 2, user_id: 31 }]);
  schedule = await createDailySchedule(h, [21, 22]);
  const sre = await seedTeam(knex, 1, { members: [23, 24], admins: [24] });
  policy = await seedPolicy(knex, { name: 'Payments', service_ids: [SERVICE] }, [
    {
      name: 'Default',
      is_default: true,
      levels: [
        { targets: [{ id: schedule, type: 'schedule' }] },
        {
          targets: [
            { id: '23', type: 'user' },
            { id: sre, type: 'team', team_members: 'admins' },
            { id: sre, type: 'team', team_members: 'escalate' },
          ],
        },
      ],
    },
    {
      name: 'Quiet hours',
      position: 1,
      notification_type: 'quiet',
      levels: [{ targets: [{ id: sre, type: 'team', team_members: 'all' }] }],
    },
    { name: 'Deferral', position: 2, path_type: 'deferral', levels: [{ targets: [{ id: '22', type: 'user' }] }] },
  ]);
  theirs = (
    await seedPolicy(knex, { team_id: 2, name: 'Theirs' }, [{ is_default: true, levels: [{ targets: [{ id: '31', type: 'user' }] }] }])
  ).id;
});
afterAll(async () => h?.close());

const get = async (query: string, options = {}) => {
  const res = await h.call('GET', `/v1/oncalls?${query}`, options);
  return res;
};
const summary = (data: Entry[]) =>
  data.map((e) => [
    e.attributes.escalation_policy_path_name,
    e.attributes.escalation_level,
    e.attributes.schedule_id === null ? '-' : 'S',
    e.attributes.user_id,
    e.attributes.starts_at,
    e.attributes.ends_at,
  ]);

describe('GET /v1/oncalls', () => {
  const at = 'since=2026-11-23T10:00:00Z';

  it('answers who is on call at an instant through each policy path and level: shifts for schedules, users and team admins for the instant', async () => {
    const res = await get(at);
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
    const instant = '2026-11-23T10:00:00.000Z';
    expect(summary(res.body.data)).toEqual([
      ['Default', 1, 'S', 21, '2026-11-23T09:00:00.000Z', '2026-11-24T09:00:00.000Z'],
      ['Default', 2, '-', 23, instant, instant],
      ['Default', 2, '-', 24, instant, instant],
      ['Quiet hours', 1, '-', 23, instant, instant],
      ['Quiet hours', 1, '-', 24, instant, instant],
    ]);
    const first = res.body.data[0] as Entry;
    expect(first).toMatchObject({
      type: 'on_call_resources',
      attributes: {
        escalation_policy_id: policy.id,
        escalation_policy_name: 'Payments',
        escalation_policy_path_id: policy.paths[0],
        is_default_path: true,
        notification_type: 'audible',
        schedule_id: schedule,
        schedule_name: 'Primary',
      },
      relationships: { user: { data: { id: '21', type: 'users' } }, schedule: { data: { id: schedule, type: 'schedules' } } },
    });
    // Ids are stable across requests.
    expect((await get(at)).body.data[0].id).toBe(first.id);
  });

  it('spans a window, keeps the earliest entry of each level, filters and answers in the time zone asked', async () => {
    const window = 'since=2026-11-23T10:00:00Z&until=2026-11-24T10:00:00Z&filter[schedule_ids]=' + schedule;
    expect(summary((await get(window)).body.data).map((e) => e[3])).toEqual([21, 22]);
    expect(summary((await get(`${window}&earliest=true`)).body.data).map((e) => e[3])).toEqual([21]);
    expect(summary((await get(`${at}&filter[user_ids]=24,22`)).body.data).map((e) => [e[0], e[3]])).toEqual([
      ['Default', 24],
      ['Quiet hours', 24],
    ]);
    expect(summary((await get(`${at}&filter[notification_types]=quiet`)).body.data).map((e) => e[0])).toEqual([
      'Quiet hours',
      'Quiet hours',
    ]);
    expect((await get(`${at}&filter[service_ids]=${SERVICE}`)).body.data).toHaveLength(5);
    expect((await get(`${at}&filter[service_ids]=${randomUUID()}`)).body.data).toEqual([]);
    const berlin = await get(`${at}&time_zone=Europe/Berlin&filter[schedule_ids]=${schedule}`);
    expect(berlin.body.data[0].attributes.starts_at).toBe('2026-11-23T10:00:00.000+01:00');
    const rails = await get(`${at}&time_zone=Eastern Time (US %26 Canada)&filter[schedule_ids]=${schedule}`);
    expect(rails.body.data[0].attributes.starts_at).toBe('2026-11-23T04:00:00.000-05:00');
  });

  it('includes the users and schedules named', async () => {
    const res = await get(`${at}&include=user,schedule`);
    expect(res.status).toBe(200);
    const included = (res.body.included as { type: string; id: string }[]).map((r) => `${r.type}:${r.id}`).sort();
    expect(included).toEqual(['schedules:' + schedule, 'users:21', 'users:23', 'users:24']);
  });

  it("gives another team's policies and ids nothing", async () => {
    expect((await get(at, { principal: { team_id: 2 } })).body.data.map((e: Entry) => e.attributes.user_id)).toEqual([31]);
    expect((await get(`${at}&filter[escalation_policy_ids]=${theirs}`)).body.data).toEqual([]);
    expect((await get(`${at}&filter[escalation_policy_ids]=${policy.id}`, { principal: { team_id: 2 } })).body.data).toEqual([]);
  });

  it('needs the escalation policies scope; a record-scoped key sees the policies it names', async () => {
    const token = (scopes: string[]) => ({ role: 'user', on_call_role: 'user', credential: { type: 'oauth', client_id: 'c1' }, scopes });
    expect((await get(at, { principal: token(['oc.schedules:read']) })).status).toBe(403);
    expect((await get(at, { principal: token(['oc.escalation_policies:read']) })).status).toBe(200);
    const key = (recordIds: string[]) => ({
      role: 'user',
      on_call_role: 'user',
      credential: { type: 'api_key', id: 'k', kind: 'record' },
      record_ids: recordIds,
    });
    // The policy alone: its users and teams, not the schedule it may not read.
    expect(summary((await get(at, { principal: key([policy.id]) })).body.data).map((e) => e[2])).toEqual(['-', '-', '-', '-']);
    expect((await get(at, { principal: key([policy.id, schedule]) })).body.data).toHaveLength(5);
    expect((await get(at, { principal: key([schedule]) })).body.data).toEqual([]);
    // A key may name records that are no UUIDs (a user's integer id): they name no policy.
    expect((await get(at, { principal: key(['21', policy.id, schedule]) })).body.data).toHaveLength(5);
    // A group key: the policy's users and teams, the schedule's shifts only once its groups own it.
    const ops = await seedTeam(h.db.knex as Knex, 1);
    const group = { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [ops] };
    expect(summary((await get(at, { principal: group })).body.data).map((e) => e[2])).toEqual(['-', '-', '-', '-']);
    const owned = await h.call('PUT', `/v1/schedules/${schedule}`, {
      body: { data: { type: 'schedules', attributes: { owner_group_ids: [ops] } } },
    });
    expect(owned.status).toBe(200);
    expect(summary((await get(at, { principal: group })).body.data).map((e) => e[2])).toEqual(['S', '-', '-', '-', '-']);
    await h.call('PUT', `/v1/schedules/${schedule}`, { body: { data: { type: 'schedules', attributes: { owner_group_ids: [] } } } });
  });

  it('refuses to read more levels, or answer more entries, than one request may (400 selection_too_large)', async () => {
    const knex = h.db.knex as Knex;
    // Team 3 alone: a policy of 2,001 levels.
    const big = await seedPolicy(knex, { team_id: 3, name: 'Big' }, [{ is_default: true }]);
    await knex('escalation_levels').insert(
      Array.from({ length: ONCALL_BOUNDS.levels + 1 }, (_, i) => ({
        team_id: 3,
        escalation_policy_id: big.id,
        escalation_policy_path_id: big.paths[0],
        position: i + 1,
        notification_target_params: JSON.stringify([{ id: '41', type: 'user' }]),
      })),
    );
    const levels = await get(at, { principal: { team_id: 3 } });
    expect([levels.status, levels.body.errors[0].code, levels.body.errors[0].source]).toEqual([
      400,
      'selection_too_large',
      { parameter: 'filter[escalation_policy_ids]' },
    ]);
    // Team 4: a team of 1,000 members paged by 21 levels is 21,000 entries.
    const members = Array.from({ length: 1000 }, (_, i) => 5000 + i);
    await seedUsers(
      knex,
      members.map((user_id) => ({ team_id: 4, user_id })),
    );
    const crowd = await seedTeam(knex, 4, { members });
    await seedPolicy(knex, { team_id: 4, name: 'Crowd' }, [
      { is_default: true, levels: Array.from({ length: 21 }, () => ({ targets: [{ id: crowd, type: 'team', team_members: 'all' }] })) },
    ]);
    expect((await get(at, { principal: { team_id: 4 } })).status).toBe(400);
    // A user filter keeps the answer within the bound.
    expect((await get(`${at}&filter[user_ids]=5000`, { principal: { team_id: 4 } })).body.data).toHaveLength(21);
  });

  it('costs each person once per level however often its targets repeat a team (2,000 levels of 50 targets naming a team of 1,000)', async () => {
    const knex = h.db.knex as Knex;
    const members = Array.from({ length: 1000 }, (_, i) => 7000 + i);
    await seedUsers(
      knex,
      members.map((user_id) => ({ team_id: 5, user_id })),
    );
    const crowd = await seedTeam(knex, 5, { members });
    const big = await seedPolicy(knex, { team_id: 5, name: 'Crowded' }, [{ is_default: true }]);
    const targets = JSON.stringify(Array.from({ length: 50 }, () => ({ id: crowd, type: 'team', team_members: 'all' })));
    await knex('escalation_levels').insert(
      Array.from({ length: ONCALL_BOUNDS.levels }, (_, i) => ({
        team_id: 5,
        escalation_policy_id: big.id,
        escalation_policy_path_id: big.paths[0],
        position: i + 1,
        notification_target_params: targets,
      })),
    );
    // Each took seconds of CPU (15 s and 9 s) when every target's every member was hashed; the bound sits
    // halfway to that, so a loaded CI machine does not fail it while the old cost still would.
    const bound = 7000;
    let started = Date.now();
    const one = await get(`${at}&filter[user_ids]=7000`, { principal: { team_id: 5 } });
    expect([one.status, one.body.meta.total_count, Date.now() - started < bound]).toEqual([200, ONCALL_BOUNDS.levels, true]);
    started = Date.now();
    expect([(await get(at, { principal: { team_id: 5 } })).status, Date.now() - started < bound]).toEqual([400, true]);
  });

  it.each([
    ['since=yesterday', 'since'],
    ['since=2026-11-23T10:00:00Z&until=2026-11-22T10:00:00Z', 'until'],
    ['since=2026-01-01T00:00:00Z&until=2027-06-01T00:00:00Z', 'until'],
    // since defaults to now: an until alone is judged against it.
    ['until=2020-01-01T00:00:00Z', 'until'],
    ['until=2199-01-01T00:00:00Z', 'until'],
    ['time_zone=Mars/Olympus', 'time_zone'],
    ['filter[schedule_ids]=abc', 'filter[schedule_ids]'],
    ['filter[user_ids]=x', 'filter[user_ids]'],
    ['filter[notification_types]=loud', 'filter[notification_types]'],
    ['earliest=yes', 'earliest'],
    ['include=teams', 'include'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter });
  });
});
