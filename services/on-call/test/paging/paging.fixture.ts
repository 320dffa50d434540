import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import type { EscalationPathPlan, NotificationRequest, Notifier } from '../../src/domain/paging/paging.ports.js';
import type { NotificationRecorder } from '@firewatch/metrics';
import { pagingEngineOn, pagingJobsOn, type PagingPorts } from '../../src/paging.wiring.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { seedUsers } from '../support/users.fixture.js';

export const MINUTE = 60_000;
export const ADA = 101;
export const BOB = 102;
export const POLICY = randomUUID();

/**
 * The paging engine's tests' world: on-call through HTTP and PostgreSQL, with the two sides
 * the engine asks fixed (a policy whose level 1 pages Ada and, 5 minutes later, level 2
 * pages Bob), the notifier a recorder with faults to order, and the jobs ticked with a
 * given clock.
 */
const plan: EscalationPathPlan = {
  policy: { id: POLICY, name: 'Primary' },
  path: { id: randomUUID(), name: 'Default', is_default: true },
  initial_delay: 0,
  notification_type: 'audible',
  repeat_count: 0,
  reason: 'default path',
  levels: [ADA, BOB].map((user, i) => ({
    id: randomUUID(),
    position: i + 1,
    delay: 5,
    paging_strategy: 'default' as const,
    schedule_strategy: 'on_call_only' as const,
    targets: [{ type: 'user' as const, id: String(user) }],
  })),
};
export const ports: PagingPorts = {
  router: { route: async () => ({ destinations: [], route: null, rule: null }) },
  plans: {
    policyFor: async (_tx, _team, d) => (d.target_id === POLICY ? plan.policy : null),
    pathFor: async (_tx, _team, id) => (id === POLICY ? plan : null),
    resolveLevel: async (_tx, _team, level) => {
      // A row the code cannot read (a bug, an old plan): resolving its level throws.
      if (level.targets.some((t) => t.id === 'unreadable')) throw new Error('unreadable target');
      return level.targets.map((target) => ({ target, user_ids: [Number(target.id)], policies: [], explanation: `user ${target.id}` }));
    },
  },
};

/** What the notifier sent (emptied before each test). */
export const sent: NotificationRequest[] = [];
/** Faults of the next sends. */
export const faults: {
  /** How many sends fail next (an SMTP outage). */
  outage: number;
  /** The next send's refusal, quoting the address as providers do. */
  refusal?: (address: string) => string;
  /** Runs once inside the next send (something that happens while a notification is on its way). */
  duringSend?: () => Promise<unknown>;
} = { outage: 0 };
export const notifier: Notifier = {
  async send(request) {
    const during = faults.duringSend;
    faults.duringSend = undefined;
    await during?.();
    if (faults.outage > 0) {
      faults.outage--;
      return { status: 'failed', reason: 'the mail server could not be reached' };
    }
    const refusal = faults.refusal;
    faults.refusal = undefined;
    if (refusal) return { status: 'failed', reason: refusal(request.address) };
    sent.push(request);
    return { status: 'sent', provider_id: `msg-${sent.length}` };
  },
};

/** on-call paging through `ports`, Ada (an email address, rules at 0 and 3 minutes) and Bob (no rules). */
export async function startPagingHarness(): Promise<OnCallHarness> {
  const h = await startOnCall({ eventPattern: 'alert.*', paging: ports });
  await seedUsers(h.db.knex as Knex, [
    { team_id: 1, user_id: ADA, name: 'Ada', email: 'ada@account.test' },
    { team_id: 1, user_id: BOB, name: 'Bob', email: 'bob@account.test' },
  ]);
  const [email] = await h.db.knex('user_email_addresses').insert({ team_id: 1, user_id: ADA, email: 'ada@pager.test' }).returning('id');
  await h.db.knex('user_notification_rules').insert([
    { team_id: 1, user_id: ADA, position: 1, delay: 0, user_email_address_id: email.id, enabled_contact_types: JSON.stringify(['email']) },
    { team_id: 1, user_id: ADA, position: 2, delay: 3, user_email_address_id: email.id, enabled_contact_types: JSON.stringify(['email']) },
  ]);
  return h;
}

/** The tests' steps on the harness `harness()` gives; each test's alerts are resolved after it. */
export function pagingHelpers(harness: () => OnCallHarness) {
  const raised: string[] = [];
  beforeEach(() => {
    sent.length = 0;
  });
  // Each test's alerts end with it: a later test's clock finds none of their steps due.
  afterEach(async () => {
    for (const id of raised.splice(0)) await act(id, 'resolve');
  });

  /** A replica's jobs over the shared database, their clock at `at`. */
  const replica = (at: () => number, recorder?: NotificationRecorder) => {
    const knex = harness().db.knex as Knex;
    return pagingJobsOn(knex, {
      engine: pagingEngineOn(knex, ports),
      notifier,
      logger: createLogger({ service: 'test', level: 'silent' }),
      intervalMs: 1000,
      sendIntervalMs: 1000,
      sendLeaseMs: MINUTE,
      recorder,
      now: at,
    });
  };
  const raise = async () => {
    const answer = await harness().create('alerts', {
      summary: 'disk full',
      status: 'triggered',
      notification_target_type: 'EscalationPolicy',
      notification_target_id: POLICY,
    });
    expect(answer.status).toBe(201);
    raised.push(answer.body.data.id as string);
    return answer.body.data.id as string;
  };
  const timeline = async (id: string) =>
    ((await harness().call('GET', `/v1/alerts/${id}/events?page[size]=100`)).body.data as { attributes: Record<string, unknown> }[]).map(
      (e) => e.attributes,
    );
  const act = (id: string, action: string, attributes?: unknown) =>
    harness().call('POST', `/v1/alerts/${id}/${action}`, { body: { data: { type: 'alerts', ...(attributes ? { attributes } : {}) } } });
  const attempts = (id: string) => harness().db.knex('alert_notification_attempts').where({ alert_id: id }).orderBy('created_at');
  return { replica, raise, timeline, act, attempts, raised };
}
