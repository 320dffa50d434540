import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { api, type RunningSystem, startSystem } from '../support/system.js';

/**
 * The paging loop end to end through the gateway with the real processes: an alert
 * ingested, routed to a policy whose level 1 pages a schedule, the user on call emailed at
 * an SMTP server this test starts, the email's acknowledge link used without signing in,
 * and the paging stopped — no level 2.
 */
let system: RunningSystem;
let smtp: SMTPServer;
let token: string;
let adminId: number;
const mails: { to: string[]; mail: ParsedMail }[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  system = await startSystem({
    onCallEnv: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, PAGING_INTERVAL_MS: '200', NOTIFICATION_SEND_INTERVAL_MS: '100' },
  });
  const boot = await system.cli('bootstrap', '--team-name', 'Paging', '--email', 'oncall@paging.test');
  adminId = boot.user.id;
  const key = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(boot.team.id),
    '--name',
    'pager',
    '--role',
    'admin',
    '--rate-limit-read',
    '10000',
    '--rate-limit-write',
    '10000',
  );
  token = key.api_key?.token ?? key.token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const gw = (method: string, path: string, body?: unknown) => api(system.gatewayUrl, method, path, { token, body });
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const found = await probe();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
}
const created = async (path: string, type: string, attributes: Record<string, unknown>) => {
  const res = await gw('POST', path, doc(type, attributes));
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data;
};

it('pages the user on call by email, whose acknowledge link stops the paging', async () => {
  // The admin reaches on-call through auth's events: retry the schedule briefly.
  const schedule = await until('the user in on-call', async () => {
    const res = await gw('POST', '/v1/schedules', doc('schedules', { name: 'Primary', owner_user_id: adminId }));
    return res.status === 201 ? res.body.data : undefined;
  });
  const rotation = await created(`/v1/schedules/${schedule.id}/schedule_rotations`, 'schedule_rotations', {
    name: 'Always',
    schedule_rotationable_type: 'ScheduleDailyRotation',
    schedule_rotationable_attributes: { handoff_time: '09:00' },
    time_zone: 'Etc/UTC',
    start_time: '2026-01-01T09:00:00Z',
  });
  await created(`/v1/schedule_rotations/${rotation.id}/schedule_rotation_users`, 'schedule_rotation_users', { user_id: adminId });
  const policy = await created('/v1/escalation_policies', 'escalation_policies', { name: 'Database' });
  for (const [position, target] of [
    [1, { type: 'schedule', id: schedule.id }],
    [2, { type: 'user', id: String(adminId) }],
  ] as const)
    await created(`/v1/escalation_policies/${policy.id}/escalation_levels`, 'escalation_levels', {
      position,
      delay: 1,
      notification_target_params: [target],
    });
  const source = await created('/v1/alert_sources', 'alert_sources', { name: 'Prometheus', source_type: 'generic_webhook' });
  await created('/v1/alert_routes', 'alert_routes', {
    name: 'Everything',
    alerts_source_ids: [source.id],
    rules: [
      {
        name: 'All',
        position: 1,
        fallback_rule: true,
        destinations: [{ target_type: 'EscalationPolicy', target_id: policy.id }],
        condition_groups: [],
      },
    ],
  });

  const ingested = await fetch(`${system.gatewayUrl}/ingest/alert_sources/${source.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${source.attributes.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ summary: 'Primary database down' }),
  });
  expect(ingested.status).toBe(202);

  const { mail, to } = await until('the page by email', async () => mails[0]);
  expect(to).toEqual(['oncall@paging.test']);
  expect(mail.subject).toContain('Primary database down');
  const alert = await until('the alert', async () => (await gw('GET', `/v1/alerts?filter[alert_source_id]=${source.id}`)).body.data[0]);
  const shown = (await gw('GET', `/v1/alerts/${alert.id}`)).body.data.attributes;
  expect(shown.notified_users.map((u: { id: number }) => u.id)).toEqual([adminId]);

  // The link works without signing in: GET confirms, POST acknowledges.
  const link = /Acknowledge: (\S+)/.exec(mail.text!)![1]!;
  expect(link.startsWith(`${system.gatewayUrl}/alert-actions/`)).toBe(true);
  expect((await fetch(link)).status).toBe(200);
  expect((await gw('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status).toBe('triggered');
  const acknowledged = await fetch(link, { method: 'POST' });
  expect(acknowledged.status).toBe(200);
  expect((await gw('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.status).toBe('acknowledged');

  const timeline = (await gw('GET', `/v1/alerts/${alert.id}/events?page[size]=100`)).body.data.map(
    (e: { attributes: Record<string, unknown> }) => e.attributes,
  );
  const steps = timeline.map((e: Record<string, unknown>) => `${String(e.kind)}/${String(e.action)}`);
  expect(steps).toEqual([
    'informational/created',
    'alert_routing/paged',
    'action/escalation_policy_paged',
    'action/paged',
    'notification/emailed',
    'status_update/acknowledged',
    'informational/updated',
  ]);
  expect(String(timeline.at(-1).details)).toMatch(/^Paging stopped \(acknowledged\)/);
  // Level 2 is a minute away, and stopped: no second email meanwhile.
  await new Promise((r) => setTimeout(r, 1000));
  expect(mails).toHaveLength(1);
}, 60_000);
