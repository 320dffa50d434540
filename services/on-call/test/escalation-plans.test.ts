import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createTargetSyncStore } from '../src/data/targets.repository.js';
import type { EscalationLevelPlan, EscalationPlans } from '../src/domain/paging/paging.ports.js';
import { escalationPlansOn } from '../src/escalation-plans.wiring.js';
import { seedPolicy } from './support/escalation-plans.fixture.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { createDailySchedule } from './support/schedules.fixture.js';
import { seedTeam } from './support/teams.fixture.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
let knex: Knex;
let plans: EscalationPlans;
// A Monday morning: the daily rotation below hands off at 09:00 UTC.
const AT = new Date('2026-11-23T10:00:00Z');
const URGENT = randomUUID();
let schedule: string;
let sre: string;

beforeAll(async () => {
  h = await startOnCall();
  knex = h.db.knex as Knex;
  plans = escalationPlansOn();
  await seedUsers(knex, [
    ...[21, 22, 23, 24, 25].map((user_id) => ({ team_id: 1, user_id, name: `U${user_id}` })),
    { team_id: 1, user_id: 26, name: 'Gone', deleted: true },
    { team_id: 2, user_id: 31 },
  ]);
  schedule = await createDailySchedule(h, [21, 22]);
  sre = await seedTeam(knex, 1, { members: [23, 24, 26], admins: [24] });
});
afterAll(async () => h?.close());

const inTx = <T>(run: (tx: Knex.Transaction) => Promise<T>) => knex.transaction(run);
const alert = (over: Record<string, unknown> = {}) => ({ id: randomUUID(), alert_urgency_id: null, service_ids: [], data: {}, ...over });
const level = (over: Partial<EscalationLevelPlan>): EscalationLevelPlan => ({
  id: randomUUID(),
  position: 1,
  delay: 5,
  paging_strategy: 'default',
  schedule_strategy: 'on_call_only',
  targets: [],
  ...over,
});

describe('escalation plans over PostgreSQL', () => {
  it('policyFor: a policy itself, the oldest policy naming a team or a service, nothing for functionalities, users or another team', async () => {
    const service = randomUUID();
    const older = await seedPolicy(knex, { name: 'Older', group_ids: [sre], created_at: new Date('2026-01-01T00:00:00Z') }, []);
    await seedPolicy(knex, { name: 'Newer', group_ids: [sre], service_ids: [service] }, []);
    const other = await seedPolicy(knex, { team_id: 2, name: 'Theirs' }, []);
    await inTx(async (tx) => {
      expect(await plans.policyFor(tx, 1, { target_type: 'EscalationPolicy', target_id: older.id })).toEqual({
        id: older.id,
        name: 'Older',
      });
      expect(await plans.policyFor(tx, 1, { target_type: 'EscalationPolicy', target_id: other.id })).toBeNull();
      expect(await plans.policyFor(tx, 1, { target_type: 'Group', target_id: sre.toUpperCase() })).toEqual({ id: older.id, name: 'Older' });
      expect(await plans.policyFor(tx, 1, { target_type: 'Service', target_id: service })).toMatchObject({ name: 'Newer' });
      expect(await plans.policyFor(tx, 2, { target_type: 'Service', target_id: service })).toBeNull();
      expect(await plans.policyFor(tx, 1, { target_type: 'Functionality', target_id: randomUUID() })).toBeNull();
      expect(await plans.policyFor(tx, 1, { target_type: 'User', target_id: '21' })).toBeNull();
      expect(await plans.policyFor(tx, 1, { target_type: 'EscalationPolicy', target_id: 'not-a-uuid' })).toBeNull();
    });
  });

  it('pathFor: the matching path with its levels by position and the reason, else the default path', async () => {
    const policy = await seedPolicy(knex, { name: 'Paths', repeat_count: 2 }, [
      { name: 'Default', is_default: true, levels: [{ targets: [{ id: '21', type: 'user' }] }] },
      {
        name: 'Urgent',
        position: 1,
        notification_type: 'quiet',
        initial_delay: 3,
        repeat: true,
        repeat_count: 1,
        rules: [{ rule_type: 'alert_urgency', urgency_ids: [URGENT] }],
        levels: [
          { position: 2, delay: 10, strategy: 'cycle', targets: [{ id: '22', type: 'user' }] },
          { position: 1, targets: [{ id: schedule, type: 'schedule' }, null as never] },
        ],
      },
    ]);
    await inTx(async (tx) => {
      const urgent = (await plans.pathFor(tx, 1, policy.id, alert({ alert_urgency_id: URGENT }), AT))!;
      expect(urgent).toMatchObject({
        policy: { id: policy.id, name: 'Paths' },
        path: { id: policy.paths[1], name: 'Urgent', is_default: false },
        initial_delay: 3,
        notification_type: 'quiet',
        repeat_count: 1,
      });
      expect(urgent.reason).toMatch(/^path "Urgent" \(position 1\): match-all-rules: alert_urgency/);
      expect(urgent.levels.map((l) => [l.position, l.paging_strategy, l.targets.length])).toEqual([
        [1, 'default', 1],
        [2, 'cycle', 1],
      ]);
      const fallback = (await plans.pathFor(tx, 1, policy.id, alert(), AT))!;
      expect(fallback).toMatchObject({ path: { name: 'Default', is_default: true }, repeat_count: 2, notification_type: 'audible' });
      expect(fallback.reason).toMatch(/^default: no other path matched/);
      expect(await plans.pathFor(tx, 2, policy.id, alert(), AT)).toBeNull();
    });
  });

  it('resolveLevel: users, who is on call now, team members and admins, escalations, channels; deleted users skipped, each user once', async () => {
    const escalation = await seedPolicy(
      knex,
      { name: 'SRE escalation', group_ids: [sre], created_at: new Date('2025-01-01T00:00:00Z') },
      [],
    );
    const service = randomUUID();
    const servicePolicy = await seedPolicy(knex, { name: 'Payments', service_ids: [service] }, []);
    const targets: EscalationLevelPlan['targets'] = [
      { type: 'user', id: '21' },
      { type: 'user', id: '26' },
      { type: 'schedule', id: schedule },
      { type: 'team', id: sre, team_members: 'all' },
      { type: 'team', id: sre, team_members: 'admins' },
      { type: 'team', id: sre, team_members: 'escalate' },
      { type: 'service', id: service },
      { type: 'slack_channel', id: 'C123' },
      { type: 'user', id: '31' },
    ];
    const resolved = await inTx((tx) => plans.resolveLevel(tx, 1, level({ targets }), alert(), AT));
    expect(resolved.map((r) => [r.target.type, r.user_ids, r.policies.map((p) => p.id)])).toEqual([
      ['user', [21], []],
      ['user', [], []],
      // Daily from 1 November 09:00 with 21, 22: on 23 November (day 22) it is 21's turn again; 21 is paged already.
      ['schedule', [], []],
      ['team', [23, 24], []],
      ['team', [], []],
      ['team', [], [escalation.id]],
      ['service', [], [servicePolicy.id]],
      ['slack_channel', [], []],
      ['user', [], []],
    ]);
    expect(resolved[0]!.explanation).toBe('user U21');
    expect(resolved[1]!.explanation).toBe('user 26 deleted: skipped');
    expect(resolved[2]!.explanation).toBe('schedule Primary: on call now; U21 already paged by this level');
    expect(resolved[3]!.explanation).toBe('team Team ' + sre.slice(0, 8) + ': members U23, U24; user 26 deleted: skipped');
    expect(resolved[5]!.explanation).toContain('escalates to its policy SRE escalation');
    expect(resolved[7]!.explanation).toContain('channels are not paged');
    // Another team's user is unknown here.
    expect(resolved[8]!.explanation).toBe('user 31 unknown: skipped');
  });

  it('an override shift is who is on call, said so; everyone pages every rotation member', async () => {
    const res = await h.call('POST', `/v1/schedules/${schedule}/override_shifts`, {
      body: { data: { type: 'shifts', attributes: { user_id: 25, starts_at: '2026-11-23T09:30:00Z', ends_at: '2026-11-23T11:00:00Z' } } },
    });
    expect([res.status, res.body.errors]).toEqual([201, undefined]);
    const targets = [{ type: 'schedule' as const, id: schedule }];
    const [now] = await inTx((tx) => plans.resolveLevel(tx, 1, level({ targets }), alert(), AT));
    expect(now).toMatchObject({ user_ids: [25], explanation: 'schedule Primary: on call now U25 (override)' });
    const [later] = await inTx((tx) => plans.resolveLevel(tx, 1, level({ targets }), alert(), new Date('2026-11-24T10:00:00Z')));
    expect(later!.user_ids).toEqual([22]);
    const [everyone] = await inTx((tx) => plans.resolveLevel(tx, 1, level({ targets, schedule_strategy: 'everyone' }), alert(), AT));
    expect(everyone!.user_ids).toEqual([21, 22]);
  });

  it('cycle pages the next person each time the level pages (the turn moves in the transaction); alert keeps one person per alert', async () => {
    const policy = await seedPolicy(knex, { name: 'Cycle' }, [{ is_default: true, levels: [{ targets: [] }] }]);
    const targets = [{ type: 'team' as const, id: sre, team_members: 'all' as const }];
    const cycling = level({ id: policy.levels[0]![0], paging_strategy: 'cycle', targets });
    const paged = [];
    for (let i = 0; i < 3; i++) paged.push((await inTx((tx) => plans.resolveLevel(tx, 1, cycling, alert(), AT)))[0]!.user_ids);
    expect(paged).toEqual([[23], [24], [23]]);
    // A rolled-back page takes no turn.
    await inTx(async (tx) => {
      await plans.resolveLevel(tx, 1, cycling, alert(), AT);
      await tx.rollback();
    }).catch(() => undefined);
    expect((await inTx((tx) => plans.resolveLevel(tx, 1, cycling, alert(), AT)))[0]!.user_ids).toEqual([24]);
    const one = alert();
    const byAlert = level({ paging_strategy: 'alert', targets });
    const first = (await inTx((tx) => plans.resolveLevel(tx, 1, byAlert, one, AT)))[0]!;
    expect(first.user_ids).toHaveLength(1);
    expect((await inTx((tx) => plans.resolveLevel(tx, 1, byAlert, one, AT)))[0]!.user_ids).toEqual(first.user_ids);
    expect(first.explanation).toContain('1 not picked by the alert strategy');
  });

  it('cycle: pages of the level at once take consecutive turns (the row lock orders them)', async () => {
    const policy = await seedPolicy(knex, { name: 'Cycle at once' }, [{ is_default: true, levels: [{ targets: [] }] }]);
    const cycling = level({
      id: policy.levels[0]![0],
      paging_strategy: 'cycle',
      targets: [{ type: 'team', id: sre, team_members: 'all' }],
    });
    const paged = await Promise.all(
      Array.from({ length: 6 }, () =>
        inTx(async (tx) => {
          const [resolved] = await plans.resolveLevel(tx, 1, cycling, alert(), AT);
          // Held a moment, so the others queue on the turn's row.
          await tx.raw('select pg_sleep(0.02)');
          return resolved!.user_ids[0];
        }),
      ),
    );
    expect(paged.filter((id) => id === 23)).toHaveLength(3);
    expect(paged.filter((id) => id === 24)).toHaveLength(3);
    expect((await knex('escalation_level_turns').where({ escalation_level_id: cycling.id }).first())!.turn).toBe(5);
  });

  it('a cycle level deleted while an alert is paging through it still pages one person (its counter went with it)', async () => {
    const policy = await seedPolicy(knex, { name: 'Cycle gone' }, [{ is_default: true, levels: [{ targets: [] }] }]);
    const targets = [{ type: 'team' as const, id: sre, team_members: 'all' as const }];
    // The paging keeps its plan (alert_pagings.plan): the level may be deleted under it.
    const cycling = level({ id: policy.levels[0]![0], paging_strategy: 'cycle', targets });
    expect((await inTx((tx) => plans.resolveLevel(tx, 1, cycling, alert(), AT)))[0]!.user_ids).toEqual([23]);
    await knex('escalation_levels').where({ id: cycling.id }).delete();
    const [after] = await inTx((tx) => plans.resolveLevel(tx, 1, cycling, alert(), AT));
    expect(after!.user_ids).toHaveLength(1);
    expect(await knex('escalation_level_turns').where({ escalation_level_id: cycling.id })).toEqual([]);
  });

  it("reads who is on call on the paging transaction's connection, never a second one of the pool", async () => {
    // A pool of one: a read outside the transaction would wait for the connection the transaction holds.
    const single = knexFactory({ ...knex.client.config, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000 });
    try {
      const targets = [{ type: 'schedule' as const, id: schedule }];
      const [resolved] = await single.transaction((tx) => escalationPlansOn().resolveLevel(tx, 1, level({ targets }), alert(), AT));
      expect(resolved!.explanation).toMatch(/^schedule Primary: on call now/);
    } finally {
      await single.destroy();
    }
  });
});

describe("a team's members from auth's group events", () => {
  it('keeps the newest state whatever the order, and a deletion leaves a team that pages nobody', async () => {
    const store = createTargetSyncStore(knex);
    const id = randomUUID();
    const change = (at: string, member_ids: number[], admin_ids: number[] = [], deleted = false) => ({
      team_id: 1,
      target_type: 'Group' as const,
      target_id: id,
      name: 'Ops',
      changed_at: new Date(at),
      deleted_at: deleted ? new Date(at) : null,
      member_ids,
      admin_ids,
    });
    expect(await store.apply(change('2026-11-25T10:00:02Z', [21, 22], [22]))).toBe(true);
    // An older event (late, or redelivered) changes nothing; the same one again is harmless.
    expect(await store.apply(change('2026-11-25T10:00:01Z', [25]))).toBe(false);
    expect(await store.apply(change('2026-11-25T10:00:02Z', [21, 22], [22]))).toBe(true);
    const members = (kind: 'all' | 'admins') =>
      inTx((tx) => plans.resolveLevel(tx, 1, level({ targets: [{ type: 'team', id, team_members: kind }] }), alert(), AT));
    expect((await members('all'))[0]!.user_ids).toEqual([21, 22]);
    expect((await members('admins'))[0]!.user_ids).toEqual([22]);
    // A team whose members on-call does not know yet (before its next event) says so.
    const unknown = await seedTeam(knex, 1, { members: [] });
    const [empty] = await inTx((tx) => plans.resolveLevel(tx, 1, level({ targets: [{ type: 'team', id: unknown }] }), alert(), AT));
    expect(empty!.explanation).toMatch(/^team .+: no members known: nobody$/);
    expect(await store.apply(change('2026-11-25T10:00:03Z', [], [], true))).toBe(true);
    expect(await store.apply(change('2026-11-25T10:00:04Z', [21]))).toBe(false);
    expect((await members('all'))[0]).toMatchObject({ user_ids: [], explanation: `team ${id} not found or deleted: nobody` });
  });
});
