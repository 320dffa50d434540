import { api, type RunningSystem, startSystem } from '../support/system.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { randomizeTeamIds, startWebhookReceiver } from '../support/webhook-receiver.js';

// 1,000 writes while the broker "restarts" twice (a TCP proxy between every process and
// RabbitMQ is cut and restored, so the machine's real broker, shared with other suites,
// is untouched) and a dispatcher replica is killed with SIGKILL and started again.
const TOTAL = 1000;
const CONCURRENCY = 8;

let system: RunningSystem;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let token: string;

beforeAll(async () => {
  proxy = await startTcpProxy(process.env.TEST_AMQP_URL!, 5672);
  system = await startSystem({
    webhooks: true,
    dispatchers: 2,
    amqpUrl: proxy.url,
    dispatcherEnv: { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,2000,2000,2000,2000,2000,2000' },
  });
  await randomizeTeamIds(system.env.auth.DATABASE_URL);
  const boot = await system.cli('bootstrap', '--team-name', 'Fault', '--email', 'admin@fault.test');
  const key = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(boot.team.id),
    '--name',
    'raised',
    '--role',
    'admin',
    '--rate-limit-read',
    '100000',
    '--rate-limit-write',
    '100000',
  );
  token = key.api_key?.token ?? key.token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
  await proxy?.close();
});

describe('webhook delivery under faults', () => {
  it('delivers every committed event at least once, duplicates under one webhook-id', async () => {
    const rx = await startWebhookReceiver();
    const endpoint = await api(system.gatewayUrl, 'POST', '/v1/webhooks/endpoints', {
      token,
      body: { data: { type: 'webhooks_endpoints', attributes: { name: 'Fault hook', url: rx.url, event_types: ['environment.created'] } } },
    });
    expect(endpoint.status).toBe(201);

    const created: string[] = [];
    const failures: number[] = [];
    let next = 0;
    const running: Promise<void>[] = [];
    const connectionsAtCut: number[] = [];
    // Cut only once the processes are back on the broker, so each cut really interrupts them.
    const cut = async (ms: number) => {
      const deadline = Date.now() + 20_000;
      while (proxy.connections < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      connectionsAtCut.push(proxy.connections);
      proxy.cut();
      await new Promise((r) => setTimeout(r, ms));
      proxy.restore();
    };
    const faults = new Map<number, () => Promise<void>>([
      [150, () => cut(2000)],
      [400, () => system.kill('dispatcher0')],
      [650, () => system.restart('dispatcher0')],
      [800, () => cut(1500)],
    ]);
    async function writer() {
      while (next < TOTAL) {
        const i = next++;
        const fault = faults.get(i);
        if (fault) running.push(fault());
        const res = await api(system.gatewayUrl, 'POST', '/v1/environments', {
          token,
          body: { data: { type: 'environments', attributes: { name: `env-${i}` } } },
        });
        if (res.status === 201) created.push(res.body.data.id);
        else failures.push(res.status);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    await Promise.all(running);
    expect(failures).toEqual([]);
    // Every process really talked to the broker through the proxy when it was cut (relays, consumers).
    expect(connectionsAtCut).toHaveLength(2);
    for (const n of connectionsAtCut) expect(n).toBeGreaterThanOrEqual(4);
    expect(created).toHaveLength(TOTAL);

    const eventOf = (body: string) => JSON.parse(body) as { event: { id: string }; data: { id: string } };
    const distinct = () => new Set(rx.deliveries.map((d) => eventOf(d.body).data.id)).size;
    await rx.waitFor(() => distinct() === TOTAL, 90_000, `${TOTAL} distinct events`);

    expect(new Set(rx.deliveries.map((d) => eventOf(d.body).data.id))).toEqual(new Set(created));
    // A duplicate (at-least-once) always carries the webhook-id of its first copy.
    const idsByEvent = new Map<string, Set<string>>();
    for (const d of rx.deliveries) {
      const { event } = eventOf(d.body);
      idsByEvent.set(event.id, (idsByEvent.get(event.id) ?? new Set()).add(d.headers['webhook-id']));
    }
    expect(idsByEvent.size).toBe(TOTAL);
    expect([...idsByEvent.values()].filter((s) => s.size !== 1)).toEqual([]);
    console.log(`fault test: ${rx.deliveries.length} requests for ${TOTAL} events (${rx.deliveries.length - TOTAL} duplicates)`);
    await rx.close();
  }, 150_000);
});
