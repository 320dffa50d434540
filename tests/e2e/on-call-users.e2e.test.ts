import pg from 'pg';
import { api, type RunningSystem, startSystem } from '../support/system.js';

// Auth's users reach on-call through auth's outbox, RabbitMQ and on-call's users queue.
let system: RunningSystem;
let token: string;
let teamId: string;
let adminId: number;

beforeAll(async () => {
  system = await startSystem();
  const boot = await system.cli('bootstrap', '--team-name', 'Rota', '--email', 'admin@rota.test');
  teamId = String(boot.team.id);
  adminId = boot.user.id;
  // Polling writes would soon meet the bootstrap key's default limits.
  const raised = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    teamId,
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

/** Repeats `attempt` until `done` holds, for at most `ms`; returns the last answer and when it came. */
async function poll<T>(attempt: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<{ value: T; elapsed: number }> {
  const start = Date.now();
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() - start > ms) return { value, elapsed: Date.now() - start };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

describe('users in on-call', () => {
  let rotationId: string;

  it('a user created in auth becomes a possible rotation member within seconds, and leaves when deleted', async () => {
    // The bootstrap admin, made after on-call started, may own a schedule.
    const schedule = await poll(
      () => api(system.gatewayUrl, 'POST', '/v1/schedules', { token, body: doc('schedules', { name: 'Primary', owner_user_id: adminId }) }),
      (r) => r.status === 201,
    );
    expect(schedule.value.status).toBe(201);
    const rotation = await api(system.gatewayUrl, 'POST', `/v1/schedules/${schedule.value.body.data.id}/schedule_rotations`, {
      token,
      body: doc('schedule_rotations', {
        name: 'Days',
        schedule_rotationable_type: 'ScheduleDailyRotation',
        schedule_rotationable_attributes: { handoff_time: '09:00' },
      }),
    });
    expect(rotation.status).toBe(201);
    rotationId = rotation.body.data.id;

    const user = await system.cli('users', 'create', '--team-id', teamId, '--email', 'kai@rota.test', '--name', 'Kai');
    const join = () =>
      api(system.gatewayUrl, 'POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, {
        token,
        body: doc('schedule_rotation_users', { user_id: user.id }),
      });
    const member = await poll(join, (r) => r.status === 201);
    expect(member.value.status).toBe(201);
    expect(member.elapsed).toBeLessThan(5000);

    await system.cli('users', 'delete', '--team-id', teamId, '--id', String(user.id));
    const gone = await poll(
      () => api(system.gatewayUrl, 'GET', `/v1/schedule_rotation_users/${member.value.body.data.id}`, { token }),
      (r) => r.status === 404,
    );
    expect(gone.value.status).toBe(404);
    expect(gone.elapsed).toBeLessThan(5000);
    expect((await join()).status).toBe(422);
  });

  it('firewatch users announce fills a read model that missed users', async () => {
    const user = await system.cli('users', 'create', '--team-id', teamId, '--email', 'lee@rota.test', '--name', 'Lee');
    const db = new pg.Client({ connectionString: system.env['on-call'].DATABASE_URL });
    await db.connect();
    try {
      await poll(
        async () => (await db.query('SELECT 1 FROM users WHERE user_id = $1', [user.id])).rowCount,
        (n) => n === 1,
      );
      // As if on-call had started after these users were made: its read model knows none of them.
      await db.query('DELETE FROM users');
      const join = () =>
        api(system.gatewayUrl, 'POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, {
          token,
          body: doc('schedule_rotation_users', { user_id: user.id }),
        });
      expect((await join()).status).toBe(422);
      expect(await system.cli('users', 'announce', '--team-id', teamId)).toEqual({ announced: 2 });
      const member = await poll(join, (r) => r.status === 201);
      expect(member.value.status).toBe(201);
      const names = await db.query('SELECT name FROM users ORDER BY user_id');
      expect(names.rows.map((r) => r.name)).toEqual(['Administrator', 'Lee']);
    } finally {
      await db.end();
    }
  });
});
