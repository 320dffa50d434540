import { collectEvents, type EventCollector } from '@firewatch/testing';
import { api, type RunningSystem, startSystem } from '../support/system.js';

let system: RunningSystem;
let events: EventCollector;
let token: string;
let teamId: number;

beforeAll(async () => {
  system = await startSystem({ gateways: 2 });
  events = await collectEvents(process.env.TEST_AMQP_URL!, 'firewatch.events', 'environment.*');
  const boot = await system.cli('bootstrap', '--team-name', 'E2E', '--email', 'admin@e2e.test');
  teamId = boot.team.id;
  // The bootstrap key keeps default limits; tests needing many calls use a raised key.
  const raised = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(teamId),
    '--name',
    'raised',
    '--role',
    'admin',
    '--rate-limit-read',
    '10000',
    '--rate-limit-write',
    '10000',
  );
  token = raised.api_key?.token ?? raised.token;
}, 120_000);

afterAll(async () => {
  await events?.close();
  await system?.stop();
});

const env = (attributes: Record<string, unknown>) => ({ data: { type: 'environments', attributes } });

describe('environments through the gateway', () => {
  it('creates, lists, gets, updates and deletes with the reference status codes, and emits events', async () => {
    const created = await api(system.gatewayUrl, 'POST', '/v1/environments', {
      token,
      body: env({ name: 'Production', color: '#FF0000' }),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes).toMatchObject({ name: 'Production', slug: 'production', color: '#FF0000' });

    const list = await api(system.gatewayUrl, 'GET', '/v1/environments', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => e.id)).toEqual([id]);
    expect(list.body.meta.total_count).toBe(1);

    expect((await api(system.gatewayUrl, 'GET', `/v1/environments/${id}`, { token })).status).toBe(200);
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments/production', { token })).body.data.id).toBe(id);

    const updated = await api(system.gatewayUrl, 'PUT', `/v1/environments/${id}`, {
      token,
      body: { data: { id, type: 'environments', attributes: { description: 'Live' } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes.description).toBe('Live');

    const deleted = await api(system.gatewayUrl, 'DELETE', `/v1/environments/${id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(id);
    expect((await api(system.gatewayUrl, 'GET', `/v1/environments/${id}`, { token })).status).toBe(404);

    await events.waitFor((es) => es.filter((e) => e.body.team_id === teamId && (e.body.data as any).id === id).length === 3, 15_000);
    const types = events.events.filter((e) => (e.body.data as any).id === id).map((e) => e.routingKey);
    expect(types).toEqual(['environment.created', 'environment.updated', 'environment.deleted']);
  });

  it('answers each kind of bad input with its 4xx and changes nothing', async () => {
    const before = (await api(system.gatewayUrl, 'GET', '/v1/environments', { token })).body.meta.total_count;
    const bad = [
      [await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: '{"data": {' }), 400],
      [
        await api(system.gatewayUrl, 'POST', '/v1/environments', {
          token,
          body: env({ name: 'x' }),
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      ],
      [await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: env({ name: 'x', nope: 1 }) }), 422],
      [await api(system.gatewayUrl, 'GET', '/v1/environments?page[size]=abc', { token }), 400],
      [await api(system.gatewayUrl, 'GET', '/v1/environments?include=nope', { token }), 400],
    ] as const;
    for (const [res, status] of bad) {
      expect(res.status).toBe(status);
      expect(res.body.errors[0].status).toBe(String(status));
    }
    expect(bad[2][0].body.errors[0].source.pointer).toBe('/data/attributes/nope');
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', { token })).body.meta.total_count).toBe(before);
  });

  it("hides another team's environments", async () => {
    const mine = await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: env({ name: 'Secret env' }) });
    const other = await system.cli('bootstrap', '--team-name', 'Other', '--email', 'admin@other.test');
    const otherToken = other.api_key.token;
    expect((await api(system.gatewayUrl, 'GET', `/v1/environments/${mine.body.data.id}`, { token: otherToken })).status).toBe(404);
    expect((await api(system.gatewayUrl, 'DELETE', `/v1/environments/${mine.body.data.id}`, { token: otherToken })).status).toBe(404);
    expect((await api(system.gatewayUrl, 'GET', `/v1/environments/${mine.body.data.id}`, { token })).status).toBe(200);
  });

  it('refuses requests without a credential and requests that bypass the gateway', async () => {
    const none = await api(system.gatewayUrl, 'GET', '/v1/environments');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await api(system.gatewayUrl, 'GET', '/v1/environments', { token: 'fwk_nope_nope' })).status).toBe(401);
    const direct = await api(system.incidentConfigUrl, 'GET', '/v1/environments', { token });
    expect(direct.status).toBe(401);
  });
});

describe('rate limits across two gateway replicas', () => {
  it('refuses the 6th read in 60 s with 429 and the specified body, with headers on every response', async () => {
    const key = await system.cli('api-keys', 'create', '--team-id', String(teamId), '--name', 'limited', '--role', 'admin');
    const limited = key.api_key?.token ?? key.token;
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(await api(system.gatewayUrls[i % 2], 'GET', '/v1/environments', { token: limited }));
    }
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    results.forEach((r, i) => {
      expect(r.headers.get('x-ratelimit-limit')).toBe('5, 5;window=60');
      expect(r.headers.get('x-ratelimit-used')).toBe(String(Math.min(i + 1, 5)));
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(Math.max(5 - (i + 1), 0)));
      const reset = Number(r.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    });
    expect(results[5].body).toEqual({ error: 'Rate limit exceeded. Try again later.' });
    // Writes are counted apart: three are still allowed.
    const write = await api(system.gatewayUrls[1], 'POST', '/v1/environments', { token: limited, body: env({ name: 'After reads' }) });
    expect(write.status).toBe(201);
    expect(write.headers.get('x-ratelimit-limit')).toBe('3, 3;window=60');
  });
});

describe('revocation', () => {
  it('refuses a revoked key within a few seconds on every replica', async () => {
    const key = await system.cli(
      'api-keys',
      'create',
      '--team-id',
      String(teamId),
      '--name',
      'to-revoke',
      '--role',
      'admin',
      '--rate-limit-read',
      '1000',
    );
    const doomed = key.api_key?.token ?? key.token;
    const id = key.api_key?.id ?? key.id;
    for (const url of system.gatewayUrls) expect((await api(url, 'GET', '/v1/environments', { token: doomed })).status).toBe(200);
    expect((await api(system.gatewayUrl, 'DELETE', `/v1/api_keys/${id}`, { token })).status).toBe(200);
    const revokedAt = Date.now();
    for (const url of system.gatewayUrls) {
      for (;;) {
        const res = await api(url, 'GET', '/v1/environments', { token: doomed });
        if (res.status === 401) break;
        expect(Date.now() - revokedAt).toBeLessThan(5_000);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
});
