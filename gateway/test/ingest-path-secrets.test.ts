import { PassThrough } from 'node:stream';
import { randomUUID } from 'node:crypto';
import express from 'express';
import { createLogger } from '@firewatch/logger';
import { listen } from '@firewatch/testing';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const SECRET = 'fwhb_Zq8vN3xK7pL2mR9tW4yB6cD1fG5hJ0sA3eU8iO2kX7n';

/** A stand-in for on-call: every forwarded ping is good. */
async function startFakeOnCall() {
  const app = express();
  app.all('/{*rest}', (_req, res) => res.status(204).end());
  return listen(app);
}

describe("gateway ingestion: a heartbeat's path secret in the logs", () => {
  const logged: string[] = [];
  let auth: FakeAuth;
  let onCall: Awaited<ReturnType<typeof startFakeOnCall>>;
  let gateway: StartedGateway;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    onCall = await startFakeOnCall();
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    gateway = await startGateway({
      logger: createLogger({ service: 'gateway', level: 'debug', stream }),
      authUrl: auth.url,
      env: { ON_CALL_URL: onCall.url, AUTH_FAILURES_PER_WINDOW: '50' },
    });
  });
  afterAll(async () => {
    await gateway.close();
    await onCall.close();
    await auth.close();
  });

  it('never logs it, whatever the method or what follows it (a HEAD, a PUT, the URL with something appended)', async () => {
    const id = randomUUID();
    const url = `${gateway.url}/ingest/heartbeats/${id}/${SECRET}`;
    for (const method of ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) await fetch(url, { method });
    for (const suffix of ['/', '/x', '.', `${'x'.repeat(200)}`, '%2F', '?run=1'])
      expect((await fetch(`${url}${suffix}`)).status).toBeGreaterThanOrEqual(200);
    // A secret put where an alert source takes none.
    await fetch(`${gateway.url}/ingest/alert_sources/${id}/${SECRET}`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.join('')).toContain(`/ingest/heartbeats/${id}`);
    expect(logged.join('')).not.toContain(SECRET);
  });

  it('never logs it or answers it when the path is in another case (/INGEST, /Ingest, an action link under /ALERT-ACTIONS)', async () => {
    const id = randomUUID();
    const token = 'Qw3rTy7uIo9pAs1dFg5hJk';
    const answered: string[] = [];
    for (const path of [
      `/INGEST/heartbeats/${id}/${SECRET}`,
      `/Ingest/heartbeats/${id}/${SECRET}`,
      `/INGEST/HEARTBEATS/${id}/${SECRET}/x`,
      `/ALERT-ACTIONS/${token}`,
      `/Alert-Actions/${token}`,
    ])
      for (const method of ['GET', 'POST', 'HEAD']) {
        const res = await fetch(`${gateway.url}${path}`, { method });
        answered.push(await res.text());
      }
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const seen of [logged.join(''), answered.join('')]) {
      expect(seen).not.toContain(SECRET);
      expect(seen).not.toContain(token);
    }
  });
});
