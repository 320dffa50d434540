import { readSample } from '@firewatch/metrics';
import { createRouteLabeler } from '../src/domain/route-labels.js';
import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef-0123456789';

describe('gateway metrics', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  const started: StartedGateway[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const gw = await startGateway({
      authUrl: auth.url,
      env: {
        INCIDENT_CONFIG_URL: upstream.url,
        ON_CALL_URL: upstream.url,
        RATE_LIMIT_READS: '1000',
        RATE_LIMIT_TEAM_READS: '1000',
        ...env,
      },
    });
    started.push(gw);
    return gw;
  };

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    for (const gw of started) await gw.close();
    await upstream.close();
    await auth.close();
  });

  it('refuses /metrics as an unknown path when neither METRICS_PUBLIC nor METRICS_TOKEN is set', async () => {
    const gw = await start();
    const res = await fetch(`${gw.url}/metrics`);
    expect(res.status).toBe(404);
    expect((await readJson(res)).errors[0].code).toBe('route_not_found');
  });

  it('serves /metrics to the bearer of METRICS_TOKEN only', async () => {
    const gw = await start({ METRICS_TOKEN });
    for (const headers of [{}, bearer('wrong'), bearer(`${METRICS_TOKEN}x`)]) {
      const res = await fetch(`${gw.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="firewatch-metrics"');
      expect((await readJson(res)).errors[0].code).toBe('invalid_metrics_token');
    }
    const res = await fetch(`${gw.url}/metrics`, { headers: bearer(METRICS_TOKEN) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE firewatch_http_requests_total counter');
  });

  it('counts requests by the route-table prefix they are forwarded under, never by their raw path', async () => {
    const gw = await start({ METRICS_PUBLIC: 'true' });
    const token = 'fw_metrics_key';
    auth.grant(token, freshPrincipal());
    for (const path of ['/v1/incidents/a1', '/v1/incidents/b2?include=x', '/v1/users/7/phone_numbers', '/v1/nowhere/1'])
      await (await fetch(`${gw.url}${path}`, { headers: bearer(token) })).arrayBuffer();
    await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
    // Recorded when the connection lets go of each answer, which may come after the client read it.
    for (
      let tries = 0;
      tries < 50 && readSample(await gw.metrics.scrape().then((r) => r.body), 'firewatch_http_requests_total', { route: '/healthz' }) !== 1;
      tries++
    )
      await new Promise((r) => setTimeout(r, 20));
    const res = await fetch(`${gw.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const count = (labels: Record<string, string>) => readSample(text, 'firewatch_http_requests_total', { service: 'gateway', ...labels });
    expect(count({ method: 'GET', route: '/v1/incidents', status: '200' })).toBe(2);
    expect(count({ route: '/v1/users/{user_id}/phone_numbers', status: '200' })).toBe(1);
    expect(count({ route: 'unmatched', status: '404' })).toBe(1);
    expect(count({ route: '/healthz', status: '200' })).toBe(1);
    expect(readSample(text, 'firewatch_http_request_duration_seconds_count', { route: '/v1/incidents', status_class: '2xx' })).toBe(2);
    expect(text).not.toMatch(/a1|b2|nowhere/);
  });
});

describe('route labels', () => {
  const label = createRouteLabeler();

  it('names the route-table entry a path is forwarded under', () => {
    expect(label('/v1/incidents')).toBe('/v1/incidents');
    expect(label('/v1/incidents/1/actions')).toBe('/v1/incidents');
    expect(label('/v1/users/7/notification_rules/3')).toBe('/v1/users/{user_id}/notification_rules');
    expect(label('/v1/users/7/roles')).toBe('/v1/users');
    expect(label('/v1/users//email_addresses')).toBe('/v1/users');
    // The teams catalog is incident-config's; every other /v1/teams path auth's.
    expect(label('/v1/teams/properties')).toBe('/v1/teams/properties');
    expect(label('/v1/teams/properties/')).toBe('/v1/teams/properties');
    expect(label('/v1/teams/platform-ops')).toBe('/v1/teams');
    expect(label('/ingest/alert_sources/5f0c6d1e-0000-4000-8000-000000000000')).toBe('/ingest/alert_sources/{id}');
    expect(label('/v1/unknown')).toBeUndefined();
    expect(label('/elsewhere')).toBeUndefined();
  });

  it('labels an ingestion path in another case as its route: the gateway forwards /INGEST/... (4fbde0b)', () => {
    expect(label('/INGEST/alert_sources/5F0C6D1E-0000-4000-8000-000000000000')).toBe('/ingest/alert_sources/{id}');
    expect(label('/Ingest/Heartbeats/5f0c6d1e-0000-4000-8000-000000000000')).toBe('/ingest/heartbeats/{id}');
    // Only those: /v1's routes stay as the route table spells them.
    expect(label('/V1/incidents')).toBeUndefined();
  });
});
