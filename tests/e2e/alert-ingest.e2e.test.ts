import { readFileSync } from 'node:fs';
import { api, type RunningSystem, startSystem } from '../support/system.js';

const fixture = (name: string) => readFileSync(new URL(`../../services/on-call/test/fixtures/${name}`, import.meta.url), 'utf8');

let system: RunningSystem;
let token: string;

beforeAll(async () => {
  system = await startSystem();
  const boot = await system.cli('bootstrap', '--team-name', 'Ingest', '--email', 'admin@ingest.test');
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
  token = raised.api_key?.token ?? raised.token;
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

const ingest = (id: string, secret: string, body: string) =>
  fetch(`${system.gatewayUrl}/ingest/alert_sources/${id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body,
  });

describe('alert ingestion through the gateway', () => {
  it("takes Alertmanager's notifications with the source's secret alone, and the API shows the alerts", async () => {
    const created = await api(system.gatewayUrl, 'POST', '/v1/alert_sources', {
      token,
      body: { data: { type: 'alert_sources', attributes: { name: 'Prometheus', source_type: 'alertmanager' } } },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const { secret, webhook_endpoint: endpoint } = created.body.data.attributes;
    expect(endpoint).toBe(`/ingest/alert_sources/${id}`);

    // An API key is not the source's secret, and a wrong secret is refused.
    expect((await ingest(id, token, fixture('alertmanager-firing.json'))).status).toBe(401);
    expect((await ingest(id, `${secret}x`, fixture('alertmanager-firing.json'))).status).toBe(401);
    // The secret is no API credential either.
    expect((await api(system.gatewayUrl, 'GET', '/v1/alerts', { token: secret })).status).toBe(401);

    const firing = await ingest(id, secret, fixture('alertmanager-firing.json'));
    expect(firing.status).toBe(202);
    expect(firing.headers.get('x-ratelimit-limit')).toMatch(/;window=60$/);
    expect((await firing.json()).meta.outcomes).toEqual(['created', 'created']);

    const resolved = await ingest(id, secret, fixture('alertmanager-resolved.json'));
    expect(resolved.status).toBe(202);

    const alerts = await api(system.gatewayUrl, 'GET', `/v1/alerts?filter[alert_source_id]=${id}`, { token });
    expect(alerts.status).toBe(200);
    const statuses = alerts.body.data.map((a: { attributes: { deduplication_key: string; status: string } }) => [
      a.attributes.deduplication_key,
      a.attributes.status,
    ]);
    expect(statuses.sort()).toEqual([
      ['0a9b8c7d6e5f4321', 'triggered'],
      ['5e1f2d3c4b5a6978', 'resolved'],
    ]);
    const source = await api(system.gatewayUrl, 'GET', `/v1/alert_sources/${id}`, { token });
    expect(source.body.data.attributes.status).toBe('connected');

    const notJson = await fetch(`${system.gatewayUrl}/ingest/alert_sources/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
      body: 'disk full',
    });
    expect(notJson.status).toBe(415);
    expect((await api(system.gatewayUrl, 'GET', `/v1/alert_sources/${id}`, { token })).body.data.attributes.last_error_message).toMatch(
      /JSON/,
    );
  });
});
