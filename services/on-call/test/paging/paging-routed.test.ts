import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';
import { pagingEngineOn, pagingJobsOn, pagingPortsOn } from '../../src/paging.wiring.js';
import { createPolicy, levelIn } from '../escalation/escalation.fixture.js';
import { ingest } from '../support/ingest.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { alwaysOnCall, createdAt } from '../support/schedules.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';
import { seedUsers } from '../support/users.fixture.js';

const MINUTE = 60_000;
const ADA = 41;
const BOB = 42;
let h: OnCallHarness;
let knex: Knex;
let source: { id: string; secret: string };
/** A source whose payloads resolve their alert by deduplication key (`state: ok`). */
let resolving: { id: string; secret: string };
let policy: string;
const sent: NotificationRequest[] = [];

/**
 * The engine over the real sides (the stored alert routes, the escalation plans over a
 * schedule's shifts): an ingested alert routed by a fallback rule to a policy whose level 1
 * pages the schedule (Ada on call) and level 2, 5 minutes later, Bob.
 */
beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert.*' });
  knex = h.db.knex as Knex;
  await seedUsers(knex, [
    { team_id: 1, user_id: ADA, name: 'Ada', email: 'ada@account.test' },
    { team_id: 1, user_id: BOB, name: 'Bob', email: 'bob@account.test' },
  ]);
  const [email] = await knex('user_email_addresses').insert({ team_id: 1, user_id: ADA, email: 'ada@pager.test' }).returning('id');
  await knex('user_notification_rules').insert({
    team_id: 1,
    user_id: ADA,
    position: 1,
    delay: 0,
    user_email_address_id: email.id,
    enabled_contact_types: JSON.stringify(['email']),
  });
  const created = (path: string, type: string, attributes: Record<string, unknown>) => createdAt(h, path, type, attributes);
  const schedule = await alwaysOnCall(h, ADA);
  policy = await createPolicy(h, { name: 'Database' });
  expect(
    (await levelIn(h, policy, { position: 1, delay: 5, notification_target_params: [{ type: 'schedule', id: schedule }] })).status,
  ).toBe(201);
  expect(
    (await levelIn(h, policy, { position: 2, delay: 5, notification_target_params: [{ type: 'user', id: String(BOB) }] })).status,
  ).toBe(201);
  const sourceData = await created('/v1/alert_sources', 'alert_sources', { name: 'Prometheus', source_type: 'generic_webhook' });
  source = { id: sourceData.id, secret: sourceData.attributes.secret };
  const resolvingData = await created('/v1/alert_sources', 'alert_sources', {
    name: 'Cron',
    source_type: 'generic_webhook',
    deduplicate_alerts_by_key: true,
    deduplication_key_path: '$.job',
    sourceable_attributes: {
      auto_resolve: true,
      resolve_state: 'ok',
      field_mappings_attributes: [{ field: 'state', json_path: '$.state' }],
    },
  });
  resolving = { id: resolvingData.id, secret: resolvingData.attributes.secret };
  const team = await seedTeam(knex, 1, { members: [ADA, BOB] });
  await created('/v1/alert_routes', 'alert_routes', {
    name: 'Everything',
    alerts_source_ids: [source.id, resolving.id],
    owning_team_ids: [team],
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

const replica = (at: () => number) =>
  pagingJobsOn(knex, {
    engine: pagingEngineOn(knex, pagingPortsOn()),
    notifier: {
      async send(request) {
        sent.push(request);
        return { status: 'sent' };
      },
    },
    logger: createLogger({ service: 'test', level: 'silent' }),
    intervalMs: 1000,
    sendIntervalMs: 1000,
    sendLeaseMs: MINUTE,
    now: at,
  });

describe('paging through the stored routes and escalation plans', () => {
  it('routes an ingested alert to the policy, emails who is on call, and stops at the acknowledgment', async () => {
    const start = Date.now();
    const answer = await ingest(h, source.id, source.secret, { summary: `db down ${randomUUID()}` });
    expect(answer.status).toBe(202);
    const [alert] = (await knex('alerts').where({ alert_source_id: source.id }).orderBy('created_at', 'desc').limit(1)) as { id: string }[];
    const id = alert!.id;

    await replica(() => Date.now()).sends.tick();
    expect(sent.map((r) => [r.user.user_id, r.channel, r.address])).toEqual([[ADA, 'email', 'ada@pager.test']]);

    const timeline = ((await h.call('GET', `/v1/alerts/${id}/events`)).body.data as { attributes: Record<string, string> }[]).map(
      (e) => e.attributes,
    );
    const paging = timeline.filter((e) => e.source === 'paging').map((e) => `${e.action}: ${e.details}`);
    expect(paging[0]).toMatch(/^paged: Routed by alert route Everything \(.*\), fallback rule to EscalationPolicy /);
    expect(paging[1]).toMatch(/^escalation_policy_paged: Paging escalation policy Database/);
    expect(paging[2]).toMatch(/^paged: Paged level 1 of Database: .*Ada/);
    expect(paging[3]).toMatch(/^emailed: Email to Ada \(contact method [0-9a-f-]{36}, try 1\): sent/);
    expect(timeline.some((e) => e.details?.includes('ada@pager.test'))).toBe(false);

    const shown = (await h.call('GET', `/v1/alerts/${id}`)).body.data.attributes;
    expect(shown.notified_users.map((u: { id: number }) => u.id)).toEqual([ADA]);
    expect(shown.alerting_targets).toEqual([{ id: policy, type: 'escalation_policy' }]);

    expect((await h.call('POST', `/v1/alerts/${id}/acknowledge`, { body: { data: { type: 'alerts' } } })).status).toBe(200);
    expect(await replica(() => start + 6 * MINUTE).steps.tick()).toBe(0);
    await replica(() => start + 6 * MINUTE).sends.tick();
    expect(sent.map((r) => r.user.user_id)).toEqual([ADA]);
  });

  it("escalates only within the team: another team's policy is a 422, another team's alert a 404, a read-only key a 403", async () => {
    const created = await h.call('POST', '/v1/alerts', {
      body: { data: { type: 'alerts', attributes: { summary: 'x', status: 'triggered' } } },
    });
    const id = created.body.data.id as string;
    const theirs = await createPolicy(h, { name: 'Theirs' }, { team_id: 2 });
    const escalate = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
      h.call('POST', `/v1/alerts/${id}/escalate`, { body: { data: { type: 'alerts', attributes } }, ...(principal ? { principal } : {}) });
    const foreign = await escalate({ escalation_policy_id: theirs });
    expect([foreign.status, foreign.body.errors?.[0]?.source?.pointer]).toEqual([422, '/data/attributes/escalation_policy_id']);
    expect((await escalate({ escalation_policy_id: policy }, { team_id: 2 })).status).toBe(404);
    expect((await escalate({ escalation_policy_id: policy }, { scopes: ['oc.alerts:read'] })).status).toBe(403);
    expect(await knex('alert_pagings').where({ alert_id: id })).toEqual([]);
    expect((await escalate({ escalation_policy_id: policy }, { scopes: ['oc.alerts:write'] })).status).toBe(200);
    expect((await knex('alert_pagings').where({ alert_id: id })).map((p) => p.escalation_policy_id)).toEqual([policy]);
    await h.call('POST', `/v1/alerts/${id}/resolve`, { body: { data: { type: 'alerts' } } });
  });

  it('steps on when the policy, a schedule and a user its path names were deleted since it began', async () => {
    const start = Date.now();
    const doomed = await createPolicy(h, { name: 'Short-lived' });
    const schedule = await h.call('POST', '/v1/schedules', {
      body: { data: { type: 'schedules', attributes: { name: 'Doomed', owner_user_id: ADA } } },
    });
    expect([schedule.status, schedule.body.errors]).toEqual([201, undefined]);
    const CARL = 43;
    await seedUsers(knex, [{ team_id: 1, user_id: CARL, name: 'Carl', email: 'carl@account.test' }]);
    expect(
      (await levelIn(h, doomed, { position: 1, delay: 5, notification_target_params: [{ type: 'user', id: String(BOB) }] })).status,
    ).toBe(201);
    const targets = [
      { type: 'schedule', id: schedule.body.data.id },
      { type: 'user', id: String(CARL) },
    ];
    expect((await levelIn(h, doomed, { position: 2, delay: 5, notification_target_params: targets })).status).toBe(201);
    const created = await h.call('POST', '/v1/alerts', {
      body: {
        data: {
          type: 'alerts',
          attributes: { summary: 'y', status: 'triggered', notification_target_type: 'EscalationPolicy', notification_target_id: doomed },
        },
      },
    });
    const id = created.body.data.id as string;
    expect((await h.call('DELETE', `/v1/schedules/${schedule.body.data.id}`)).status).toBeLessThan(300);
    expect((await h.call('DELETE', `/v1/escalation_policies/${doomed}`)).status).toBeLessThan(300);
    await knex('users').where({ user_id: CARL }).update({ deleted_at: new Date() });

    // Level 2 pages nobody now (its schedule and user gone): skipped, and the path ends at once.
    expect(await replica(() => start + 6 * MINUTE).steps.tick()).toBe(1);
    expect((await knex('alert_pagings').where({ alert_id: id })).map((p) => [p.state, p.stopped_reason])).toEqual([
      ['ended', 'unanswered'],
    ]);
    const steps = (await knex('alert_events').where({ alert_id: id, kind: 'action' }).orderBy('created_at')).map((e) => e.action);
    expect(steps).toEqual(['escalation_policy_paged', 'paged', 'level_skipped']);
    await h.call('POST', `/v1/alerts/${id}/resolve`, { body: { data: { type: 'alerts' } } });
  });

  it('stops when its source resolves it by deduplication key, its due notifications cancelled in the same write', async () => {
    const start = Date.now();
    const job = `backup-${randomUUID()}`;
    expect((await ingest(h, resolving.id, resolving.secret, { summary: 'backup failed', job, state: 'failing' })).status).toBe(202);
    const [alert] = (await knex('alerts').where({ alert_source_id: resolving.id, deduplication_key: job })) as { id: string }[];
    const id = alert!.id;
    expect((await knex('alert_notification_attempts').where({ alert_id: id })).map((a) => a.status)).toEqual(['due']);

    const resolved = await ingest(h, resolving.id, resolving.secret, { job, state: 'ok' });
    expect(resolved.body.meta.outcomes).toEqual(['resolved']);
    expect((await knex('alert_notification_attempts').where({ alert_id: id })).map((a) => a.status)).toEqual(['cancelled']);
    expect((await knex('alert_pagings').where({ alert_id: id })).map((p) => [p.state, p.stopped_reason])).toEqual([
      ['stopped', 'resolved'],
    ]);
    const stopped = (await knex('alert_events').where({ alert_id: id })).filter((e) => String(e.details).startsWith('Paging stopped'));
    expect(stopped.map((e) => [e.source, e.details])).toEqual([
      ['generic_webhook', 'Paging stopped (resolved): 1 escalation policy, 1 due notification(s) cancelled.'],
    ]);

    sent.length = 0;
    expect(await replica(() => start + 6 * MINUTE).steps.tick()).toBe(0);
    expect(await replica(() => start + 6 * MINUTE).sends.tick()).toBe(0);
    expect(sent).toEqual([]);
  });
});
