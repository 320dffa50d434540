import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';
import { pagingEngineOn, pagingJobsOn, pagingPortsOn } from '../../src/paging.wiring.js';
import { createShiftInputsRepository, rotationsInOneRead } from '../../src/data/shift-inputs.repository.js';
import { createUsersRepository } from '../../src/data/users.repository.js';
import { escalationPlansOn } from '../../src/escalation-plans.wiring.js';
import { createPolicy, levelIn, pathIn } from '../escalation/escalation.fixture.js';
import { ingest } from '../support/ingest.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { alwaysOnCall, createdAt } from '../support/schedules.fixture.js';
import { seedUsers } from '../support/users.fixture.js';

const ADA = 51;
let h: OnCallHarness;
let knex: Knex;
let source: { id: string; secret: string };
const sent: NotificationRequest[] = [];

/** bench:paging's world: a route pages a policy whose level 1 pages a schedule with Ada on call, who has no rules. */
beforeAll(async () => {
  h = await startOnCall();
  knex = h.db.knex as Knex;
  await seedUsers(knex, [{ team_id: 1, user_id: ADA, name: 'Ada', email: 'ada@account.test' }]);
  const created = (path: string, type: string, attributes: Record<string, unknown>) => createdAt(h, path, type, attributes);
  const schedule = await alwaysOnCall(h, ADA);
  const policy = await createPolicy(h, { name: 'Bench' });
  expect(
    (await levelIn(h, policy, { position: 1, delay: 60, notification_target_params: [{ type: 'schedule', id: schedule }] })).status,
  ).toBe(201);
  const sourceData = await created('/v1/alert_sources', 'alert_sources', { name: 'bench', source_type: 'generic_webhook' });
  source = { id: sourceData.id, secret: sourceData.attributes.secret };
  await created('/v1/alert_routes', 'alert_routes', {
    name: 'Everything',
    alerts_source_ids: [source.id],
    rules: [
      {
        name: 'All',
        position: 1,
        fallback_rule: true,
        destinations: [{ target_type: 'EscalationPolicy', target_id: policy }],
        condition_groups: [],
      },
    ],
  });
});
afterAll(async () => h?.close());

async function statements<T>(work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  knex.on('query', listener);
  try {
    return { result: await work(), sql };
  } finally {
    knex.removeListener('query', listener);
  }
}

const jobs = () =>
  pagingJobsOn(knex, {
    engine: pagingEngineOn(knex, pagingPortsOn()),
    notifier: { send: async (r) => (sent.push(r), { status: 'sent', provider_id: 'x' }) },
    logger: createLogger({ service: 'test', level: 'silent' }),
    intervalMs: 1000,
    sendIntervalMs: 1000,
    sendLeaseMs: 60_000,
  });

/** The paging's statements of an intake: after the routes' read, before the outbox row (the intake's own). */
const paging = (sql: string[]) => {
  const from = sql.findIndex((s) => s.includes('alert_routes')) + 1;
  return sql.slice(
    from,
    sql.findIndex((s, i) => i >= from && /insert into "?outbox/i.test(s)),
  );
};

describe('the round trips of one paged alert (bench:paging, docs/paging.md)', () => {
  it("pages in 7 statements of the intake's transaction and records the email's outcome in a transaction of 5 statements, the timeline as before", async () => {
    // The first page warms what a process reads once.
    await ingest(h, source.id, source.secret, { summary: `warm ${randomUUID()}` });
    await jobs().sends.tick();
    sent.length = 0;

    const intake = await statements(() => ingest(h, source.id, source.secret, { summary: `page ${randomUUID()}` }));
    const send = await statements(() => jobs().sends.tick());
    expect(intake.result.status).toBe(202);
    expect(sent).toHaveLength(1);

    // The policy with its paths and levels; the schedule, its rotations with their members and
    // active days, its overrides (who is on call); the users; the paged users with their rules
    // and contact methods; then every write (paging, attempt, events) in one. Before: 20
    // (policy read twice, paths, levels, the rotations' three reads, a users read and three
    // of rules and contact methods, each write and each event a statement).
    expect(paging(intake.sql)).toHaveLength(7);
    // One claim, with the alert (before: the alert read apart, and a second, empty, claim
    // once the send finished); BEGIN, the alerts' and attempts' locks (two before), the
    // outcome with its timeline event (two before), the outbox, COMMIT.
    const tx = send.sql.slice(send.sql.indexOf('BEGIN;'), send.sql.indexOf('COMMIT;') + 1);
    expect(tx).toHaveLength(5);
    expect(
      send.sql.filter((s) => /alert_notification_attempts/.test(s) && /FOR UPDATE SKIP LOCKED/i.test(s) && /picked/.test(s)),
    ).toHaveLength(1);
    expect(send.sql).toHaveLength(tx.length + 1);

    const id = String(sent[0]!.alert.id);
    const events = (await knex('alert_events').where({ alert_id: id }).orderBy('created_at')) as Record<string, unknown>[];
    expect(events.map((e) => [e.kind, e.action, e.source])).toEqual([
      ['informational', 'created', 'generic_webhook'],
      ['alert_routing', 'paged', 'paging'],
      ['action', 'escalation_policy_paged', 'paging'],
      ['action', 'paged', 'paging'],
      ['notification', 'emailed', 'paging'],
    ]);
    // Their order is their created_at alone (microseconds), none equal.
    const { rows } = await knex.raw('SELECT count(DISTINCT created_at)::int AS n FROM alert_events WHERE alert_id = ?', [id]);
    expect(rows[0].n).toBe(events.length);
    expect(String(events[3]!.details)).toMatch(/^Paged level 1 of Bench: schedule Primary: on call now Ada\.$/);
    expect(String(events[4]!.details)).toMatch(/^Email to Ada \(the account email, try 1\): sent \(x\)\.$/);
    const shown = (await h.call('GET', `/v1/alerts/${id}`)).body.data.attributes;
    expect(shown.notified_users.map((u: { id: number }) => u.id)).toEqual([ADA]);
    const [pagingRow] = await knex('alert_pagings').where({ alert_id: id });
    expect(pagingRow).toMatchObject({ run: 1, level_index: 1, round: 0, state: 'active' });
    expect(pagingRow.next_step_at.getTime() - pagingRow.created_at.getTime()).toBeGreaterThan(59 * 60_000);
  });

  it("reads a schedule's rotations with their member slots and active days in one statement as the three reads do", async () => {
    const [rotation] = await knex('schedule_rotations').where({ team_id: 1 }).select('id', 'schedule_id');
    // A second member, a vacancy (a deleted member keeps their place) and custom active days.
    await seedUsers(knex, [{ team_id: 1, user_id: ADA + 1, name: 'Bo', email: 'bo@account.test' }]);
    await knex('schedule_rotation_users').insert({ team_id: 1, schedule_rotation_id: rotation.id, user_id: ADA + 1, position: 2 });
    await knex('schedule_rotation_vacancies').insert({
      id: randomUUID(),
      team_id: 1,
      schedule_rotation_id: rotation.id,
      user_id: 99,
      position: 1,
      member_created_at: new Date('2026-01-01T00:00:00.123Z'),
      left_at: new Date('2026-02-01T00:00:00.456Z'),
    });
    await knex('schedule_rotation_active_days').insert({
      team_id: 1,
      schedule_rotation_id: rotation.id,
      day_name: 'M',
      active_time_attributes: JSON.stringify([{ start_time: '09:00', end_time: '17:00' }]),
    });
    const scope = { teamId: 1, scheduleIds: [rotation.schedule_id as string], bounds: { rotations: 10, memberSlots: 100 } };
    const three = await createShiftInputsRepository(knex, createUsersRepository()).rotations(scope);
    const one = await rotationsInOneRead(knex, scope);
    expect(three[0]!.member_slots).toHaveLength(3);
    expect(three[0]!.active_day_rows).toHaveLength(1);
    // What the shift engine reads of them (the three reads' rows carry their other columns too).
    const read = (rs: typeof one) =>
      rs.map((r) => ({
        ...r,
        member_slots: r.member_slots.map(({ user_id, left_at }) => ({ user_id, left_at })),
        active_day_rows: r.active_day_rows.map(({ day_name, active_time_attributes }) => ({ day_name, active_time_attributes })),
      }));
    expect(read(one)).toEqual(read(three));
    expect(one[0]!.member_slots.map((m) => m.user_id)).toEqual([99, ADA, ADA + 1]);
  });

  it("reads a policy's levels apart when they are more than its one read brings, and pages its path's all the same", async () => {
    const policy = await createPolicy(h, { name: `Long ${randomUUID()}` });
    const path = await knex('escalation_paths').where({ escalation_policy_id: policy, is_default: true }).first('id');
    const other = (await pathIn(h, policy, { name: 'Other', position: 1, rules: [] })).body.data.id as string;
    // Past the API's 20 levels a path, written directly: 51 levels in all, the read's bound is 50.
    const levels = (pathId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        team_id: 1,
        escalation_policy_id: policy,
        escalation_policy_path_id: pathId,
        position: i + 1,
        delay: i,
        notification_target_params: JSON.stringify([{ type: 'user', id: String(ADA) }]),
      }));
    await knex('escalation_levels').insert([...levels(path.id, 26), ...levels(other, 25)]);
    const plans = escalationPlansOn();
    const { result: plan, sql } = await statements(() =>
      knex.transaction(async (tx) => {
        expect(await plans.policyFor(tx, 1, { target_type: 'EscalationPolicy', target_id: policy })).toMatchObject({ id: policy });
        return plans.pathFor(tx, 1, policy, { id: randomUUID(), team_id: 1, summary: 'x', data: {} }, new Date());
      }),
    );
    // A path without rules admits every alert: the first by position.
    expect(plan!.path.id).toBe(other);
    expect(plan!.levels.map((l) => [l.position, l.delay])).toEqual(levels(other, 25).map((l) => [l.position, l.delay]));
    // BEGIN, the policy with its paths (read once for both questions), the chosen path's levels, COMMIT.
    expect(sql).toHaveLength(4);
  });
});
