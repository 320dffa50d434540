import { randomUUID } from 'node:crypto';
import express from 'express';
import { listen } from '@firewatch/testing';
import { startTracing, type Tracing } from '@firewatch/tracing';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const SECRET = 'fwhb_Zq8vN3xK7pL2mR9tW4yB6cD1fG5hJ0sA3eU8iO2kX7n';
const LINK = 'Kp3xV9_qW-2mZ7bN4cR8sA';

describe('gateway traces: secrets and link tokens in paths', () => {
  const exported: string[] = [];
  let collector: Awaited<ReturnType<typeof listen>>;
  let tracing: Tracing;
  let auth: FakeAuth;
  let onCall: Awaited<ReturnType<typeof listen>>;
  let gateway: StartedGateway;

  beforeAll(async () => {
    const otlp = express();
    otlp.use(express.text({ type: () => true, limit: '10mb' }));
    otlp.post('/v1/traces', (req, res) => {
      exported.push(String(req.body));
      res.status(200).json({});
    });
    collector = await listen(otlp);
    tracing = await startTracing('gateway', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces` });
    const fake = express();
    fake.all('/{*rest}', (_req, res) => res.status(204).end());
    onCall = await listen(fake);
    auth = await startFakeAuth(systemTokens);
    gateway = await startGateway({ authUrl: auth.url, env: { ON_CALL_URL: onCall.url, AUTH_FAILURES_PER_WINDOW: '50' } });
  });
  afterAll(async () => {
    await gateway.close();
    await onCall.close();
    await auth.close();
    await collector.close();
  });

  it("never put a ping URL's secret or an action link's token in a span", async () => {
    expect(tracing.enabled).toBe(true);
    const id = randomUUID();
    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}/${SECRET}`)).status).toBe(204);
    await fetch(`${gateway.url}/ingest/heartbeats/${id}/${SECRET}`, { method: 'HEAD' });
    expect((await fetch(`${gateway.url}/alert-actions/${LINK}`)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await tracing.shutdown();
    const all = exported.join('');
    expect(all).toContain(`/ingest/heartbeats/${id}`);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(LINK);
  });
});
