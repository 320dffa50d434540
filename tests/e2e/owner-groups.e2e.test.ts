import { api, type RunningSystem, startSystem } from '../support/system.js';

// Issue 22: a team made in auth (/v1/teams) reaches incident-config through auth's outbox,
// RabbitMQ and incident-config's groups queue; owner_group_ids must name such teams.
let system: RunningSystem;
let token: string;
let teamId: string;

beforeAll(async () => {
  system = await startSystem();
  const boot = await system.cli('bootstrap', '--team-name', 'Owners', '--email', 'admin@owners.test');
  teamId = String(boot.team.id);
  const raised = ['--rate-limit-read', '10000', '--rate-limit-write', '10000'];
  token = (await system.cli('api-keys', 'create', '--team-id', teamId, '--name', 'raised', '--role', 'admin', ...raised)).token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

/** Repeats `attempt` until `done` holds, for at most `ms`; returns the last answer and how long it took. */
async function poll<T>(attempt: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<{ value: T; elapsed: number }> {
  const start = Date.now();
  for (;;) {
    const value = await attempt();
    if (done(value) || Date.now() - start > ms) return { value, elapsed: Date.now() - start };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const call = (method: string, path: string, body?: unknown, as = token) => api(system.gatewayUrl, method, path, { token: as, body });

describe('owner groups are teams', () => {
  it("a team made in auth may own services within seconds; a team's deletion leaves them as they were", async () => {
    const team = await call('POST', '/v1/teams', doc('groups', { name: 'Payments' }));
    expect(team.status).toBe(201);
    const teamUuid = team.body.data.id as string;

    const create = (name: string) => call('POST', '/v1/services', doc('services', { name, owner_group_ids: [teamUuid] }));
    const made = await poll(
      () => create('Ledger'),
      (r) => r.status !== 422,
    );
    expect(made.value.status).toBe(201);
    expect(made.elapsed).toBeLessThan(5000);
    expect(made.value.body.data.attributes.owner_group_ids).toEqual([teamUuid]);

    const unknown = await call('POST', '/v1/services', doc('services', { name: 'Typo', owner_group_ids: ['payments'] }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'invalid_reference', source: { pointer: '/data/attributes/owner_group_ids/0' } });

    expect((await call('DELETE', `/v1/teams/${teamUuid}`)).status).toBe(200);
    const refused = await poll(
      () => create('After deletion'),
      (r) => r.status === 422,
    );
    expect(refused.value.status).toBe(422);
    const kept = await call('GET', `/v1/services/${made.value.body.data.id}`);
    expect(kept.body.data.attributes.owner_group_ids).toEqual([teamUuid]);
  });

  it('a team made in auth may own an on-call alert source within seconds, and a key of that team sees only its own', async () => {
    const team = await call('POST', '/v1/teams', doc('groups', { name: 'On call' }));
    expect(team.status).toBe(201);
    const teamUuid = team.body.data.id as string;

    const create = (name: string, owners: string[]) =>
      call('POST', '/v1/alert_sources', doc('alert_sources', { name, owner_group_ids: owners }));
    const made = await poll(
      () => create('Prometheus', [teamUuid]),
      (r) => r.status !== 422,
    );
    expect(made.value.status).toBe(201);
    expect(made.elapsed).toBeLessThan(5000);
    expect((await create('Team-wide', [])).status).toBe(201);
    const unknown = await create('Typo', ['on-call']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'invalid_reference', source: { pointer: '/data/attributes/owner_group_ids/0' } });

    const key = await call('POST', '/v1/api_keys', doc('api_keys', { name: 'On call key', kind: 'group', group_ids: [teamUuid] }));
    expect(key.status).toBe(201);
    const seen = await call('GET', '/v1/alert_sources', undefined, key.body.data.attributes.token as string);
    expect(seen.body.data.map((s: { id: string }) => s.id)).toEqual([made.value.body.data.id]);
  });
});
