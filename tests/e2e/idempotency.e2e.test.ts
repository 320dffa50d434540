import { collectEvents, type EventCollector } from '@firewatch/testing';
import { api, type RunningSystem, startSystem } from '../support/system.js';

let system: RunningSystem;
let events: EventCollector;
let token: string;

beforeAll(async () => {
  system = await startSystem();
  events = await collectEvents(process.env.TEST_AMQP_URL!, 'firewatch.events', 'environment.*');
  const boot = await system.cli('bootstrap', '--team-name', 'E2E', '--email', 'admin@e2e.test');
  const key = await system.cli('api-keys', 'create', '--team-id', String(boot.team.id), '--name', 'e2e', '--role', 'admin');
  token = key.api_key?.token ?? key.token;
}, 120_000);

afterAll(async () => {
  await events?.close();
  await system?.stop();
});

const env = (name: string) => ({ data: { type: 'environments', attributes: { name } } });

describe('Idempotency-Key through the gateway', () => {
  it('replays the first answer to a retried create, which creates one record and one event', async () => {
    const headers = { 'idempotency-key': 'e2e-create-1' };
    const first = await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: env('Staging'), headers });
    expect(first.status).toBe(201);
    const again = await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: env('Staging'), headers });
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([201, first.body, 'true']);
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();

    const other = await api(system.gatewayUrl, 'POST', '/v1/environments', { token, body: env('Other'), headers });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('idempotency_key_reused');

    const list = await api(system.gatewayUrl, 'GET', '/v1/environments', { token });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([first.body.data.id]);
    // Other systems publish to the same exchange (every e2e system and bench does): count this record's events only.
    // A replay that created a second record is caught by the list above.
    const created = (all: EventCollector['events']) =>
      all.filter((e) => e.routingKey === 'environment.created' && (e.body.data as { id?: string })?.id === first.body.data.id);
    await events.waitFor((all) => created(all).length > 0);
    // Time for a second event, had the replay written one.
    await new Promise((r) => setTimeout(r, 1000));
    expect(created(events.events)).toHaveLength(1);
  });
});
