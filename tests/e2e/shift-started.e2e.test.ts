import { Webhook } from 'standardwebhooks';
import { api, type RunningSystem, startSystem } from '../support/system.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

// Two on-call replicas share one database, each running the shift.started scheduler.
let system: RunningSystem;
let token: string;
let adminId: number;

beforeAll(async () => {
  system = await startSystem({ webhooks: true, dispatchers: 1, onCallReplicas: 1 });
  const boot = await system.cli('bootstrap', '--team-name', 'Shifts', '--email', 'admin@shifts.test');
  adminId = boot.user.id;
  const raised = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(boot.team.id),
    '--name',
    'raised',
    '--role',
    'admin',
    '--rate-limit-read',
    '10000',
    '--rate-limit-write',
    '10000',
  );
  token = raised.token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const gw = (method: string, path: string, body?: unknown) => api(system.gatewayUrl, method, path, { token, body });

it('two on-call replicas, a shift beginning in 10 seconds: exactly one shift.started webhook', async () => {
  const rx = await startWebhookReceiver();
  try {
    const endpoint = await gw(
      'POST',
      '/v1/webhooks/endpoints',
      doc('webhooks_endpoints', { name: 'Shifts', url: rx.url, event_types: ['shift.started'] }),
    );
    expect(endpoint.status).toBe(201);
    // The admin reaches on-call through auth's events: retry the schedule briefly.
    let schedule = await gw('POST', '/v1/schedules', doc('schedules', { name: 'Primary', owner_user_id: adminId }));
    for (let i = 0; i < 100 && schedule.status !== 201; i++) {
      await new Promise((r) => setTimeout(r, 100));
      schedule = await gw('POST', '/v1/schedules', doc('schedules', { name: 'Primary', owner_user_id: adminId }));
    }
    expect(schedule.status).toBe(201);
    const startsAt = new Date(Math.ceil((Date.now() + 10_000) / 1000) * 1000);
    const rotation = await gw(
      'POST',
      `/v1/schedules/${schedule.body.data.id}/schedule_rotations`,
      doc('schedule_rotations', {
        name: 'Days',
        schedule_rotationable_type: 'ScheduleDailyRotation',
        schedule_rotationable_attributes: { handoff_time: '09:00' },
        time_zone: 'Europe/Berlin',
        start_time: startsAt.toISOString(),
      }),
    );
    expect(rotation.status).toBe(201);
    expect(
      (
        await gw(
          'POST',
          `/v1/schedule_rotations/${rotation.body.data.id}/schedule_rotation_users`,
          doc('schedule_rotation_users', { user_id: adminId }),
        )
      ).status,
    ).toBe(201);

    await rx.waitFor((ds) => ds.length >= 1, 25_000, 'the shift.started webhook');
    // Both replicas have looked several times since: still one.
    await new Promise((r) => setTimeout(r, 5000));
    expect(rx.deliveries).toHaveLength(1);
    const body = new Webhook(endpoint.body.data.attributes.secret).verify(rx.deliveries[0].body, rx.deliveries[0].headers) as any;
    expect(body.event.type).toBe('shift.started');
    expect(body.data).toMatchObject({
      type: 'shifts',
      attributes: {
        schedule_id: schedule.body.data.id,
        rotation_id: rotation.body.data.id,
        starts_at: startsAt.toISOString(),
        user_id: adminId,
      },
      meta: { late: false },
    });
  } finally {
    await rx.close();
  }
}, 60_000);
