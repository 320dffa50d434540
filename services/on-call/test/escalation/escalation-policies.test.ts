import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { pointers } from '../support/schedules.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';
import { seedUsers } from '../support/users.fixture.js';
import { seedService } from '../support/targets.fixture.js';
import { createPolicy, levelIn, pathIn, put } from './escalation.fixture.js';

let h: OnCallHarness;
let knex: Knex;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: '#' });
  knex = h.db.knex as Knex;
  await seedUsers(knex, [
    { team_id: 1, user_id: 11 },
    { team_id: 2, user_id: 21 },
    { team_id: 1, user_id: 13, deleted: true },
  ]);
});
afterAll(async () => h?.close());

const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
const defaultPathOf = async (policyId: string) =>
  (await h.call('GET', `/v1/escalation_policies/${policyId}/escalation_paths`)).body.data.find(
    (p: { attributes: { default: boolean } }) => p.attributes.default,
  ).id as string;
const eventsOf = (id: string) => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey);

describe('escalation policies', () => {
  it('creates a policy with its default path, reads it with its paths and levels, updates and lists it', async () => {
    const team = await seedTeam(knex);
    const service = await seedService(knex);
    const created = await h.create('escalation_policies', {
      name: 'Primary',
      description: 'Business hours first',
      repeat_count: 2,
      group_ids: [team, team.toUpperCase()],
      service_ids: [service],
      business_hours: { time_zone: 'Europe/Berlin', days: ['M', 'T'], start_time: '09:00', end_time: '17:00' },
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Primary',
      repeat_count: 2,
      group_ids: [team],
      service_ids: [service],
      created_by_user_id: 1,
      last_updated_by_user_id: 1,
      business_hours: { time_zone: 'Europe/Berlin', days: ['M', 'T'], start_time: '09:00', end_time: '17:00' },
    });
    const paths = await h.call('GET', `/v1/escalation_policies/${id}/escalation_paths`);
    expect(paths.body.data).toHaveLength(1);
    expect(paths.body.data[0].attributes).toMatchObject({
      name: 'Default',
      default: true,
      escalation_policy_id: id,
      path_type: 'escalation',
    });
    const pathId = paths.body.data[0].id;
    await h.events!.waitFor(() => eventsOf(pathId).includes('escalation_path.created'));

    const level = await levelIn(h, id, { delay: 5, notification_target_params: [{ type: 'user', id: '11' }] });
    expect(level.status).toBe(201);
    expect(level.body.data.attributes).toMatchObject({
      escalation_policy_id: id,
      escalation_policy_path_id: pathId,
      paging_strategy_configuration_strategy: 'default',
      paging_strategy_configuration_schedule_strategy: 'on_call_only',
      notification_target_params: [{ type: 'user', id: '11', team_members: null }],
    });
    const read = await h.call('GET', `/v1/escalation_policies/${id}?include=escalation_policy_paths,escalation_policy_levels`);
    expect(read.status).toBe(200);
    expect(read.body.included.map((r: { type: string; id: string }) => `${r.type}:${r.id}`).sort()).toEqual(
      [`escalation_levels:${level.body.data.id}`, `escalation_paths:${pathId}`].sort(),
    );

    const updated = await put(
      h,
      `/v1/escalation_policies/${id}`,
      'escalation_policies',
      { name: 'Primary (EU)', business_hours: null },
      { user_id: 11 },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      name: 'Primary (EU)',
      business_hours: null,
      created_by_user_id: 1,
      last_updated_by_user_id: 11,
    });
    expect(idsOf(await h.call('GET', '/v1/escalation_policies?filter[search]=eu)'))).toContain(id);
    expect(idsOf(await h.call('GET', '/v1/escalation_policies?filter[name]=primary%20(eu)'))).toEqual([id]);
    expect(idsOf(await h.call('GET', `/v1/escalation_policies?filter[team_ids]=${team}`))).toEqual([id]);
    expect(idsOf(await h.call('GET', `/v1/escalation_policies?filter[team_ids][not_in]=${team}`))).not.toContain(id);
    expect((await h.call('GET', `/v1/escalation_policies/${id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await h.call('GET', `/v1/escalation_policies/${id}/escalation_levels`, { principal: { team_id: 2 } })).status).toBe(404);
    const otherTeam = { principal: { team_id: 2 } };
    expect((await h.call('GET', `/v1/escalation_paths/${pathId}`, otherTeam)).status).toBe(404);
    expect((await h.call('GET', `/v1/escalation_paths/${pathId}/escalation_levels`, otherTeam)).status).toBe(404);
    expect((await h.call('GET', `/v1/escalation_levels/${level.body.data.id}`, otherTeam)).status).toBe(404);
    expect((await put(h, `/v1/escalation_levels/${level.body.data.id}`, 'escalation_levels', { delay: 1 }, { team_id: 2 })).status).toBe(
      404,
    );
    expect((await h.call('DELETE', `/v1/escalation_paths/${pathId}`, otherTeam)).status).toBe(404);
  });

  it('refuses a name the team has in another case (409), and unknown teams, services and time zones (422)', async () => {
    await createPolicy(h, { name: 'Database' });
    const taken = await h.create('escalation_policies', { name: 'DATABASE' });
    expect(taken.status).toBe(409);
    const otherTeams = await seedTeam(knex, 2);
    const bad = await h.create('escalation_policies', {
      name: 'Bad',
      group_ids: [await seedTeam(knex), otherTeams],
      service_ids: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual(['/data/attributes/group_ids/1', '/data/attributes/service_ids/0']);
    const zone = await h.create('escalation_policies', { name: 'Zone', business_hours: { time_zone: 'Pacific Time (US & Canada)' } });
    expect(zone.status).toBe(422);
    expect(pointers(zone)).toEqual(['/data/attributes/business_hours/time_zone']);
  });

  it('needs oc.escalation_policies', async () => {
    expect((await h.create('escalation_policies', { name: 'Scoped' }, { principal: { scopes: ['oc.schedules:write'] } })).status).toBe(403);
    expect(
      (await h.create('escalation_policies', { name: 'Scoped' }, { principal: { scopes: ['oc.escalation_policies:write'] } })).status,
    ).toBe(201);
  });

  it('deletes a policy with its paths and levels, announcing each', async () => {
    const id = await createPolicy(h);
    const extra = await pathIn(h, id, { name: 'Night' });
    const level = await h.call('POST', `/v1/escalation_paths/${extra.body.data.id}/escalation_levels`, {
      body: { data: { type: 'escalation_levels', attributes: { position: 1, notification_target_params: [{ type: 'user', id: 11 }] } } },
    });
    expect(level.status).toBe(201);
    expect(level.body.data.attributes.escalation_policy_id).toBe(id);
    expect((await h.call('DELETE', `/v1/escalation_policies/${id}`)).status).toBe(200);
    expect(await knex('escalation_paths').where({ escalation_policy_id: id })).toEqual([]);
    expect(await knex('escalation_levels').where({ escalation_policy_id: id })).toEqual([]);
    await h.events!.waitFor(() => eventsOf(level.body.data.id).includes('escalation_level.deleted'));
    await h.events!.waitFor(() => eventsOf(extra.body.data.id).includes('escalation_path.deleted'));
    expect((await h.call('GET', `/v1/escalation_levels/${level.body.data.id}`)).status).toBe(404);
  });

  it('lets alert groups target a policy by id alone (EscalationPolicy)', async () => {
    const id = await createPolicy(h);
    const group = await h.create('alert_groups', { name: `Targets ${id.slice(0, 6)}`, targets: [{ target_id: id }] });
    expect(group.status).toBe(201);
    expect(group.body.data.attributes.targets).toEqual([{ target_type: 'EscalationPolicy', target_id: id }]);
  });
});

describe('escalation paths', () => {
  it('keeps exactly one default path: a new default unsets the old, which is announced; the default cannot be unset or deleted', async () => {
    const id = await createPolicy(h);
    const first = await defaultPathOf(id);
    const second = await pathIn(h, id, {
      name: 'Urgent',
      default: true,
      initial_delay: 10,
      time_restriction_time_zone: 'America/New_York',
    });
    expect(second.status).toBe(201);
    expect(second.body.data.attributes).toMatchObject({ default: true, position: 1, initial_delay: 10, repeat: false, repeat_count: 0 });
    expect((await h.call('GET', `/v1/escalation_paths/${first}`)).body.data.attributes.default).toBe(false);
    await h.events!.waitFor(() => eventsOf(first).includes('escalation_path.updated'));
    const unset = await put(h, `/v1/escalation_paths/${second.body.data.id}`, 'escalation_paths', { default: false });
    expect(unset.status).toBe(422);
    expect(pointers(unset)).toEqual(['/data/attributes/default']);
    expect((await h.call('DELETE', `/v1/escalation_paths/${second.body.data.id}`)).status).toBe(422);
    const back = await put(h, `/v1/escalation_paths/${first}`, 'escalation_paths', { default: true });
    expect(back.status).toBe(200);
    expect((await h.call('DELETE', `/v1/escalation_paths/${second.body.data.id}`)).status).toBe(200);
    expect(await knex('escalation_paths').where({ escalation_policy_id: id, is_default: true }).pluck('id')).toEqual([first]);
  });

  it('judges rules, deferral settings and time restrictions', async () => {
    const id = await createPolicy(h);
    const urgency = (await h.create('alert_urgencies', { name: `High ${id.slice(0, 6)}`, description: 'Pages' })).body.data.id as string;
    const service = await seedService(knex);
    const good = await pathIn(h, id, {
      match_mode: 'match-any-rule',
      rules: [
        { rule_type: 'alert_urgency', urgency_ids: [urgency] },
        { rule_type: 'service', service_ids: [service] },
        { rule_type: 'json_path', json_path: '$.labels.env', operator: 'matches', value: '^prod' },
        { rule_type: 'working_hour', within_working_hour: true },
        { rule_type: 'source', operator: 'is', values: ['datadog'] },
      ],
      time_restrictions: [{ start_day: 'monday', start_time: '09:00', end_day: 'friday', end_time: '17:00' }],
      time_restriction_time_zone: 'Europe/Paris',
    });
    expect(good.status).toBe(201);
    expect(good.body.data.attributes.rules).toHaveLength(5);
    expect(idsOf(await h.call('GET', `/v1/escalation_policies/${id}/escalation_paths?filter[path_type]=deferral`))).toEqual([]);

    const bad = await pathIn(h, id, {
      rules: [
        { rule_type: 'alert_urgency', urgency_ids: ['00000000-0000-4000-8000-000000000000'] },
        { rule_type: 'json_path', json_path: '$[', operator: 'is', value: 'x' },
        { rule_type: 'service', service_ids: [await seedService(knex, 2)] },
      ],
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual([
      '/data/attributes/rules/0/urgency_ids/0',
      '/data/attributes/rules/1/json_path',
      '/data/attributes/rules/2/service_ids/0',
    ]);
    const deferral = await pathIn(h, id, { path_type: 'deferral' });
    expect(deferral.status).toBe(422);
    expect(pointers(deferral)).toEqual(['/data/attributes/after_deferral_behavior']);
    const elsewhere = await pathIn(h, id, {
      path_type: 'deferral',
      after_deferral_behavior: 'execute_path',
      after_deferral_path_id: await defaultPathOf(await createPolicy(h)),
    });
    expect(pointers(elsewhere)).toEqual(['/data/attributes/after_deferral_path_id']);
    const deferred = await pathIn(h, id, {
      path_type: 'deferral',
      after_deferral_behavior: 'execute_path',
      after_deferral_path_id: good.body.data.id,
    });
    expect(deferred.status).toBe(201);
    const retyped = await put(h, `/v1/escalation_paths/${deferred.body.data.id}`, 'escalation_paths', { path_type: 'escalation' });
    expect(pointers(retyped)).toEqual(['/data/attributes/path_type']);
    expect((await pathIn(h, id, { initial_delay: 10_081 })).status).toBe(422);
    expect((await pathIn(h, id, { time_restriction_time_zone: 'Mars/Olympus' })).status).toBe(422);
  });
});

describe('escalation levels', () => {
  it('checks every target against the team, stores chat channels as sent, and moves between paths of the policy only', async () => {
    const id = await createPolicy(h);
    const team = await seedTeam(knex);
    const service = await seedService(knex);
    const schedule = await h.create('schedules', { name: `Primary ${id.slice(0, 6)}`, owner_user_id: 11 });
    expect(schedule.status).toBe(201);
    const targets = [
      { type: 'user', id: '11' },
      { type: 'schedule', id: schedule.body.data.id },
      { type: 'team', id: team, team_members: 'admins' },
      { type: 'service', id: service },
      { type: 'slack_channel', id: 'C06Q2JK7RQW' },
      { type: 'microsoft_teams_channel', id: 'ops' },
    ];
    const level = await levelIn(h, id, { delay: 15, paging_strategy_configuration_strategy: 'cycle', notification_target_params: targets });
    expect(level.status).toBe(201);
    expect(level.body.data.attributes.notification_target_params).toEqual(
      targets.map((t) => ({ ...t, team_members: t.type === 'team' ? 'admins' : null })),
    );
    const bad = await levelIn(h, id, {
      notification_target_params: [
        { type: 'user', id: '21' },
        { type: 'user', id: '13' },
        { type: 'schedule', id: '00000000-0000-4000-8000-000000000000' },
        { type: 'team', id: await seedTeam(knex, 2) },
        { type: 'service', id: 'not-a-service' },
        { type: 'user', id: 'ada' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/data/attributes/notification_target_params/${i}/id`));
    expect(await knex('escalation_levels').where({ escalation_policy_id: id }).count()).toEqual([{ count: 1 }]);

    const other = await pathIn(h, id, { name: 'Other' });
    const moved = await put(h, `/v1/escalation_levels/${level.body.data.id}`, 'escalation_levels', {
      escalation_policy_path_id: other.body.data.id,
      position: 3,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.attributes).toMatchObject({ escalation_policy_path_id: other.body.data.id, position: 3, delay: 15 });
    expect(idsOf(await h.call('GET', `/v1/escalation_paths/${other.body.data.id}/escalation_levels`))).toEqual([level.body.data.id]);
    const away = await put(h, `/v1/escalation_levels/${level.body.data.id}`, 'escalation_levels', {
      escalation_policy_path_id: await defaultPathOf(await createPolicy(h)),
    });
    expect(pointers(away)).toEqual(['/data/attributes/escalation_policy_path_id']);
    const underPath = await h.call('POST', `/v1/escalation_paths/${other.body.data.id}/escalation_levels`, {
      body: {
        data: {
          type: 'escalation_levels',
          attributes: { position: 1, escalation_policy_path_id: await defaultPathOf(id), notification_target_params: [] },
        },
      },
    });
    expect(pointers(underPath)).toEqual(['/data/attributes/escalation_policy_path_id']);
    expect((await h.call('DELETE', `/v1/escalation_levels/${level.body.data.id}`)).status).toBe(200);
    await h.events!.waitFor(
      () => eventsOf(level.body.data.id).join() === 'escalation_level.created,escalation_level.updated,escalation_level.deleted',
    );
  });

  it('refuses a level or a policy change that makes a policy page itself through escalating teams', async () => {
    const [ta, tb] = [await seedTeam(knex), await seedTeam(knex)];
    const a = await createPolicy(h, { group_ids: [ta] });
    const b = await createPolicy(h, { group_ids: [tb] });
    expect((await levelIn(h, a, { notification_target_params: [{ type: 'team', id: tb, team_members: 'escalate' }] })).status).toBe(201);
    const back = await levelIn(h, b, { notification_target_params: [{ type: 'team', id: ta, team_members: 'escalate' }] });
    expect(back.status).toBe(422);
    expect(back.body.errors[0]).toMatchObject({
      code: 'escalation_cycle',
      source: { pointer: '/data/attributes/notification_target_params' },
    });
    expect(back.body.errors[0].detail).toContain(`${b} → ${a} → ${b}`);
    const self = await levelIn(h, a, { notification_target_params: [{ type: 'team', id: ta, team_members: 'escalate' }] });
    expect(self.status).toBe(422);
    // b names no team a escalates to yet: naming ta in b's levels by its members only is fine.
    const members = await levelIn(h, b, { notification_target_params: [{ type: 'team', id: ta, team_members: 'all' }] });
    expect(members.status).toBe(201);
    // ...until b's level escalates to ta, and then a policy write closing the loop is refused too.
    const tc = await seedTeam(knex);
    expect((await levelIn(h, b, { notification_target_params: [{ type: 'team', id: tc, team_members: 'escalate' }] })).status).toBe(201);
    const closing = await put(h, `/v1/escalation_policies/${a}`, 'escalation_policies', { group_ids: [ta, tc] });
    expect(closing.status).toBe(422);
    expect(pointers(closing)).toEqual(['/data/attributes/group_ids']);
    expect((await h.call('GET', `/v1/escalation_policies/${a}`)).body.data.attributes.group_ids).toEqual([ta]);
  });
});
