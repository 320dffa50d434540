import { Webhook } from 'standardwebhooks';
import { api, type RunningSystem, startSystem } from '../support/system.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { randomizeTeamIds, startWebhookReceiver as startReceiver } from '../support/webhook-receiver.js';

let system: RunningSystem;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let token: string;
let otherToken: string;
let teamId: number;

async function raisedKey(teamId: number, name: string, role = 'admin'): Promise<string> {
  const key = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(teamId),
    '--name',
    name,
    '--role',
    role,
    '--on-call-role',
    role,
    '--rate-limit-read',
    '10000',
    '--rate-limit-write',
    '10000',
  );
  return key.api_key?.token ?? key.token;
}

beforeAll(async () => {
  // Every process traces into this receiver (docs/operations.md, "Traces"); spans leave in batches every 100 ms.
  otlp = await startOtlpReceiver();
  system = await startSystem({
    commonEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
    webhooks: true,
    dispatchers: 1,
    dispatcherEnv: { WEBHOOK_RETRY_SCHEDULE_MS: '300,300,300', WEBHOOK_RETRY_JITTER: '0' },
  });
  await randomizeTeamIds(system.env.auth.DATABASE_URL);
  const boot = await system.cli('bootstrap', '--team-name', 'Hooks', '--email', 'admin@hooks.test');
  teamId = boot.team.id;
  token = await raisedKey(teamId, 'raised');
  const other = await system.cli('bootstrap', '--team-name', 'Other hooks', '--email', 'admin@other-hooks.test');
  otherToken = await raisedKey(other.team.id, 'raised');
}, 120_000);

// Receivers are closed even when a test fails, or their sockets would keep Jest waiting.
const receivers: { close(): Promise<void> }[] = [];
async function startWebhookReceiver(...args: Parameters<typeof startReceiver>) {
  const rx = await startReceiver(...args);
  receivers.push(rx);
  return rx;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((rx) => rx.close()));
});

afterAll(async () => {
  await system?.stop();
  await otlp?.close();
});

const gw = (method: string, path: string, body?: unknown, as = token) => api(system.gatewayUrl, method, path, { token: as, body });
const createEnvironment = (name: string, as = token) =>
  gw('POST', '/v1/environments', { data: { type: 'environments', attributes: { name } } }, as);
const createEndpoint = (attributes: Record<string, unknown>, as = token) =>
  gw('POST', '/v1/webhooks/endpoints', { data: { type: 'webhooks_endpoints', attributes } }, as);

describe('webhooks through the gateway', () => {
  it("delivers exactly the subscribed events of the endpoint's team, signed per Standard Webhooks", async () => {
    const rx = await startWebhookReceiver();
    const endpoint = await createEndpoint({
      name: 'Env hook',
      url: rx.url,
      event_types: ['environment.created'],
      custom_headers: [{ name: 'X-Tenant', value: 'hooks' }],
    });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.data.attributes.secret;
    expect(secret).toMatch(/^whsec_/);
    // Another team's endpoint on the same receiver URL must not see this team's events, and vice versa.
    expect((await createEndpoint({ name: 'Other', url: `${rx.url}?other`, event_types: ['incident.created'] }, otherToken)).status).toBe(
      201,
    );

    const mine = [];
    for (const name of ['Prod', 'Staging', 'Dev']) mine.push((await createEnvironment(name)).body.data.id);
    await createEnvironment('Theirs', otherToken);
    await gw('PUT', `/v1/environments/${mine[0]}`, { data: { type: 'environments', attributes: { description: 'updated' } } });

    await rx.waitFor((ds) => ds.length >= 3);
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.deliveries).toHaveLength(3);
    const verifier = new Webhook(secret);
    const bodies = rx.deliveries.map((d) => verifier.verify(d.body, d.headers) as any);
    expect(bodies.map((b) => b.event.type)).toEqual(['environment.created', 'environment.created', 'environment.created']);
    expect(bodies.map((b) => b.data.id)).toEqual(mine);
    expect(rx.deliveries.every((d) => d.headers['x-tenant'] === 'hooks' && d.headers['content-type'] === 'application/json')).toBe(true);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 9).toString('base64')}`).verify(rx.deliveries[0].body, rx.deliveries[0].headers),
    ).toThrow();

    const list = await gw('GET', `/v1/webhooks/endpoints/${endpoint.body.data.id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.meta.total_count).toBe(3);
    expect(new Set(list.body.data.map((d: any) => d.id))).toEqual(new Set(rx.deliveries.map((d) => d.headers['webhook-id'])));
    expect((await gw('GET', `/v1/webhooks/endpoints/${endpoint.body.data.id}/deliveries`, undefined, otherToken)).status).toBe(404);
    await rx.close();
  });

  it('retries a delivery the receiver answered 500, and redelivers on request with the same webhook-id', async () => {
    const rx = await startWebhookReceiver((_d, n) => ({ status: n === 1 ? 500 : 200 }));
    const endpoint = await createEndpoint({ name: 'Flaky hook', url: rx.url, event_types: ['environment.created'] });
    const secret = endpoint.body.data.attributes.secret;
    await createEnvironment('Flaky env');
    await rx.waitFor((ds) => ds.length === 2, 15_000, 'the retry');
    const webhookId = rx.deliveries[0].headers['webhook-id'];
    expect(rx.deliveries[1].headers['webhook-id']).toBe(webhookId);
    expect(rx.deliveries[1].body).toBe(rx.deliveries[0].body);

    let delivery: any;
    for (let i = 0; i < 50; i++) {
      delivery = await gw('GET', `/v1/webhooks/deliveries/${webhookId}?include=attempts`);
      if (delivery.body.data.attributes.status === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivery.status).toBe(200);
    expect(delivery.body.data.attributes).toMatchObject({
      endpoint_id: endpoint.body.data.id,
      status: 'delivered',
      attempt_count: 2,
      payload: rx.deliveries[0].body,
    });
    expect(delivery.body.data.attributes.delivered_at).toEqual(expect.any(String));
    expect(delivery.body.included.map((a: any) => [a.type, a.attributes.attempt_number, a.attributes.status_code])).toEqual([
      ['webhooks_delivery_attempts', 1, 500],
      ['webhooks_delivery_attempts', 2, 200],
    ]);

    const redeliver = await gw('POST', `/v1/webhooks/deliveries/${webhookId}/deliver`);
    expect(redeliver.status).toBe(200);
    expect(redeliver.body.data).toMatchObject({ id: webhookId, type: 'webhooks_deliveries' });
    await rx.waitFor((ds) => ds.length === 3, 10_000, 'the redelivery');
    expect(rx.deliveries[2].headers['webhook-id']).toBe(webhookId);
    expect(new Webhook(secret).verify(rx.deliveries[2].body, rx.deliveries[2].headers)).toBeTruthy();
    const attempts = await gw('GET', `/v1/webhooks/deliveries/${webhookId}/attempts`);
    await new Promise((r) => setTimeout(r, 300));
    const again = await gw('GET', `/v1/webhooks/deliveries/${webhookId}/attempts`);
    expect(again.body.data.map((a: any) => a.attributes.trigger)).toEqual(['scheduled', 'scheduled', 'manual']);
    expect(attempts.status).toBe(200);
    expect((await gw('POST', `/v1/webhooks/deliveries/${webhookId}/deliver`, undefined, otherToken)).status).toBe(404);
    await rx.close();
  });

  it('sends custom header values only to the receiver: masked in responses and endpoint events, sealed in the database', async () => {
    const credential = `Bearer e2e-${Date.now()}-secret-credential`;
    const watcher = await startWebhookReceiver();
    const rx = await startWebhookReceiver();
    expect(
      (await createEndpoint({ name: 'Watcher', url: watcher.url, event_types: ['webhooks_endpoint.created', 'webhooks_endpoint.updated'] }))
        .status,
    ).toBe(201);
    const created = await createEndpoint({
      name: 'Creds hook',
      url: rx.url,
      event_types: ['environment.created'],
      custom_headers: [{ name: 'Authorization', value: credential }],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store'); // it reveals the secret
    const id = created.body.data.id;
    const masked = [{ name: 'Authorization', value: `****${credential.slice(-4)}` }];
    expect(created.body.data.attributes.custom_headers).toEqual(masked);
    const read = await gw('GET', `/v1/webhooks/endpoints/${id}`);
    expect(read.body.data.attributes.custom_headers).toEqual(masked);
    // PUT what GET returned: the stored credential stays.
    const updated = await gw('PUT', `/v1/webhooks/endpoints/${id}`, {
      data: {
        id,
        type: 'webhooks_endpoints',
        attributes: { name: 'Creds hook 2', custom_headers: read.body.data.attributes.custom_headers },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes.custom_headers).toEqual(masked);

    await createEnvironment('Creds env');
    await rx.waitFor((ds) => ds.length === 1);
    expect(rx.deliveries[0].headers.authorization).toBe(credential);
    // The watcher also gets the event of its own creation.
    const about = () => watcher.deliveries.filter((d) => JSON.parse(d.body).data.id === id);
    await watcher.waitFor(() => about().length === 2, 15_000, 'the endpoint events');
    expect(about().map((d) => JSON.parse(d.body).event.type)).toEqual(['webhooks_endpoint.created', 'webhooks_endpoint.updated']);
    expect(about()[0].body).toContain(masked[0].value);
    // The URL too is masked past its host in endpoint events (it may be a bearer credential).
    expect(about().map((d) => JSON.parse(d.body).data.attributes.url)).toEqual([
      `${new URL(rx.url).origin}/****`,
      `${new URL(rx.url).origin}/****`,
    ]);
    expect(watcher.deliveries.map((d) => d.body).join()).not.toContain(credential.slice(7, -4));

    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: system.env.webhooks.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT custom_headers::text AS headers FROM webhooks_endpoints WHERE id = $1', [id]);
      expect(rows[0].headers).toContain('sealed');
      expect(rows[0].headers).not.toContain(credential.slice(7, -4));
    } finally {
      await db.end();
    }
    await rx.close();
    await watcher.close();
  });

  it('hands a non-admin key nothing the API refuses it: no endpoint, no deliveries (security issue 19, finding 1)', async () => {
    const user = await raisedKey(teamId, 'user key', 'user');
    const observer = await raisedKey(teamId, 'observer key', 'observer');
    const subscribe = { name: 'Mine', url: 'https://receiver.example.com/in', event_types: ['incident.created'] };
    for (const as of [user, observer]) {
      expect((await createEndpoint(subscribe, as)).status).toBe(403);
      expect((await gw('GET', '/v1/webhooks/endpoints', undefined, as)).status).toBe(403);
    }

    const rx = await startWebhookReceiver();
    const endpoint = (await createEndpoint({ name: 'Admin incidents', url: rx.url, event_types: ['incident.created'] })).body.data;
    const title = `Private merger ${Date.now()}`;
    const incident = await gw('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title, private: true } } });
    expect(incident.status).toBe(201);
    expect((await gw('GET', `/v1/incidents/${incident.body.data.id}`, undefined, user)).status).toBe(404);
    await rx.waitFor((ds) => ds.length === 1, 15_000, 'the incident event');
    const webhookId = rx.deliveries[0].headers['webhook-id'];

    for (const as of [user, observer]) {
      for (const path of [
        `/v1/webhooks/endpoints/${endpoint.id}`,
        `/v1/webhooks/endpoints/${endpoint.id}/deliveries`,
        `/v1/webhooks/deliveries/${webhookId}`,
        `/v1/webhooks/deliveries/${webhookId}/attempts`,
      ]) {
        const res = await gw('GET', path, undefined, as);
        expect([path, res.status]).toEqual([path, 403]);
        expect(JSON.stringify(res.body)).not.toContain(title);
      }
    }
    const mine = await gw('GET', `/v1/webhooks/endpoints/${endpoint.id}/deliveries`);
    expect(mine.status).toBe(200);
    expect(mine.body.data[0].attributes.payload).toContain(title);
    await rx.close();
  });

  it('serves the event catalog and refuses unknown types, reserved headers and non-https URLs per configuration', async () => {
    const types = await gw('GET', '/v1/webhooks/event_types');
    expect(types.status).toBe(200);
    expect(types.body.data.map((t: any) => t.id)).toContain('environment.created');
    const bad = await createEndpoint({
      name: 'Bad',
      url: 'https://example.com',
      event_types: ['nope.nope'],
      custom_headers: [{ name: 'Host', value: 'x' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/custom_headers/0/name',
      '/data/attributes/event_types/0',
    ]);
    expect((await createEndpoint({ name: 'Ftp', url: 'ftp://example.com' })).status).toBe(422);
  });
});

describe('traces', () => {
  it('follow a write from the gateway through incident-config, its outbox and relay to the webhook delivery, in one trace', async () => {
    const rx = await startWebhookReceiver();
    expect((await createEndpoint({ name: 'Traced hook', url: rx.url, event_types: ['environment.created'] })).status).toBe(201);
    const clientTrace = '0af7651916cd43dd8448eb211c80319c';
    const created = await api(system.gatewayUrl, 'POST', '/v1/environments', {
      token,
      body: { data: { type: 'environments', attributes: { name: 'Traced env' } } },
      headers: { 'x-request-id': 'trace-e2e-1', traceparent: `00-${clientTrace}-b7ad6b7169203331-01` },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('trace-e2e-1');
    await rx.waitFor((ds) => ds.some((d) => JSON.parse(d.body).data.id === created.body.data.id));

    const root = () => otlp.spans.find((s) => s.service === 'gateway' && s.attributes['firewatch.request_id'] === 'trace-e2e-1');
    const trace = () => otlp.spans.filter((s) => s.traceId === root()?.traceId);
    for (let i = 0; i < 100 && !trace().some((s) => s.name === 'webhook delivery'); i++) await new Promise((r) => setTimeout(r, 100));
    const spans = trace();
    const one = (service: string, name: string) => {
      const found = spans.filter((s) => s.service === service && s.name === name);
      expect(found.map((s) => `${s.service}: ${s.name}`)).toEqual([`${service}: ${name}`]);
      return found[0];
    };
    const gateway = one('gateway', 'gateway POST');
    const forward = one('gateway', 'forward incident-config');
    const service = one('incident-config', 'service POST');
    const write = one('incident-config', 'outbox write');
    const publish = one('incident-config', 'publish environment.created');
    const consume = one('webhook-dispatcher', 'consume environment.created');
    // One attempt per endpoint of the team subscribed (earlier tests left some, whose receivers are gone).
    const deliveries = spans.filter((s) => s.service === 'webhook-dispatcher' && s.name === 'webhook delivery');
    const eventId = JSON.parse(rx.deliveries.at(-1)!.body).event.id;
    expect(deliveries.length).toBeGreaterThanOrEqual(1);
    expect(deliveries.every((s) => s.parentSpanId === consume.spanId && s.attributes['firewatch.event_id'] === eventId)).toBe(true);
    // The gateway starts the trace: a client's traceparent is not continued.
    expect(gateway.parentSpanId).toBeUndefined();
    expect(gateway.traceId).not.toBe(clientTrace);
    const parents = [forward, service, write, publish, consume].map((s) => spans.find((p) => p.spanId === s.parentSpanId));
    expect(parents).toEqual([gateway, forward, service, write, publish]);
    // The request id travelled in the envelope to the dispatcher.
    expect(consume.attributes['firewatch.request_id']).toBe('trace-e2e-1');
    // The request id and trace context stay in the envelope: customers' payloads do not carry them.
    expect(Object.keys(JSON.parse(rx.deliveries.at(-1)!.body))).toEqual(['event', 'data']);
    expect(Object.keys(JSON.parse(rx.deliveries.at(-1)!.body).event)).toEqual(['id', 'type', 'occurred_at']);
  });
});
