import http from 'node:http';
import net from 'node:net';
import { createPrincipalVerifier, type Principal, PRINCIPAL_HEADER } from '@firewatch/auth';
import { listen, signAsGateway, TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { type FakeAuth, type FakeUpstream, freshPrincipal, startFakeAuth, startFakeUpstream } from './support/fake-services.js';
import { bearer, readJson, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const JSONAPI = 'application/vnd.api+json';
const LIMIT = 64 * 1024;

/** Sends a chunked body (no Content-Length) and resolves with the status and body of the answer. */
function sendChunked(url: string, token: string, chunks: Buffer[], end: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/v1/incidents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': JSONAPI, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

describe('gateway proxying', () => {
  let auth: FakeAuth;
  let upstream: FakeUpstream;
  let gateway: StartedGateway;
  let principal: Principal;
  const token = 'fw_proxy_key';

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await startFakeUpstream();
    const closed = await listen((_req, res) => res.end());
    await closed.close();
    gateway = await startGateway({
      authUrl: auth.url,
      env: {
        INCIDENT_CONFIG_URL: upstream.url,
        COMMUNICATIONS_URL: closed.url, // nothing listens there any more
        RATE_LIMIT_READS: '1000',
        RATE_LIMIT_TEAM_READS: '1000',
        RATE_LIMIT_WRITES: '1000',
        RATE_LIMIT_TEAM_WRITES: '1000',
        BODY_LIMIT_BYTES: String(LIMIT),
        UPSTREAM_TIMEOUT_MS: '300',
      },
    });
    principal = freshPrincipal({ record_ids: ['r1'] });
    auth.grant(token, principal);
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await auth.close();
  });

  it('forwards the signed principal and request id, never the client credential or a forged principal', async () => {
    const forged = await signAsGateway(freshPrincipal({ team_id: 666 }), 'incident-config', 'GET', '/v1/environments/abc');
    const res = await fetch(`${gateway.url}/v1/environments/abc?page%5Bsize%5D=5&include=x`, {
      headers: bearer(token, { 'x-request-id': 'client-req-1', [PRINCIPAL_HEADER]: forged, accept: JSONAPI }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('client-req-1');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000, 1000;window=60');
    expect(res.headers.get('x-ratelimit-used')).toBe('1');
    const echo = await readJson(res);
    expect(echo.method).toBe('GET');
    expect(echo.url).toBe('/v1/environments/abc?page%5Bsize%5D=5&include=x');
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers['x-request-id']).toBe('client-req-1');
    expect(echo.headers.accept).toBe(JSONAPI);
    expect(echo.headers[PRINCIPAL_HEADER]).not.toBe(forged);
    const verifier = createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'incident-config' });
    expect(await verifier.verify(echo.headers[PRINCIPAL_HEADER], { method: 'GET', path: '/v1/environments/abc' })).toEqual(principal);
    // Bound to this service, method and path: useless for any other request.
    expect(await verifier.verify(echo.headers[PRINCIPAL_HEADER], { method: 'DELETE', path: '/v1/environments/abc' })).toBeNull();
    const webhooks = createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'webhooks' });
    expect(await webhooks.verify(echo.headers[PRINCIPAL_HEADER], { method: 'GET', path: '/v1/environments/abc' })).toBeNull();
  });

  it('forwards the X-Forwarded-* of this hop and never hop-by-hop headers or client trace context', async () => {
    const res = await fetch(`${gateway.url}/v1/incidents`, {
      headers: bearer(token, {
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'forged.example',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        tracestate: 'vendor=1',
        'proxy-authorization': 'Basic Zm9vOmJhcg==',
        te: 'trailers',
        'x-custom': 'kept',
      }),
    });
    const echo = (await readJson(res)).headers;
    expect(echo['x-forwarded-for']).toMatch(/^203\.0\.113\.7, (::ffff:)?127\.0\.0\.1$/);
    expect(echo['x-forwarded-proto']).toBe('http');
    expect(echo['x-forwarded-host']).toBe(new URL(gateway.url).host);
    expect(echo.host).toBe(new URL(gateway.url).host);
    expect(echo['x-custom']).toBe('kept');
    for (const dropped of ['traceparent', 'tracestate', 'proxy-authorization', 'te']) expect(echo[dropped]).toBeUndefined();
  });

  it('names the service as Host for an HTTP/1.0 client that sent none', async () => {
    const { port } = new URL(gateway.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /v1/incidents HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    const echo = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(echo.headers.host).toBe(new URL(upstream.url).host);
    expect(echo.headers['x-forwarded-host']).toBeUndefined();
  });

  it('names the service as Host, once, for a client that sent an empty one', async () => {
    const { port } = new URL(gateway.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /v1/incidents HTTP/1.1\r\nHost: \r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    const echo = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(echo.headers.host).toBe(new URL(upstream.url).host);
  });

  it('makes a request id when the client sends none (or an unsafe one) and forwards it', async () => {
    for (const headers of [bearer(token), bearer(token, { 'x-request-id': 'bad id with spaces' })]) {
      const res = await fetch(`${gateway.url}/v1/incidents`, { headers });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await readJson(res)).headers['x-request-id']).toBe(id);
    }
  });

  it('passes If-Match and If-None-Match through, and a 304 back with its ETag and the rate-limit headers', async () => {
    const res = await fetch(`${gateway.url}/v1/incidents/tagged`, { headers: bearer(token, { 'if-none-match': '"v1"' }) });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000, 1000;window=60');
    expect(await res.text()).toBe('');
    const write = await fetch(`${gateway.url}/v1/incidents/tagged`, {
      method: 'PUT',
      headers: bearer(token, { 'if-match': '"v1"', 'content-type': JSONAPI }),
      body: '{}',
    });
    expect(write.status).toBe(200);
    expect((await readJson(write)).headers['if-match']).toBe('"v1"');
  });

  it('streams POST, PUT and PATCH bodies through intact', async () => {
    const body = JSON.stringify({ data: { type: 'incidents', attributes: { title: 'é'.repeat(20_000) } } });
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await fetch(`${gateway.url}/v1/incidents/1`, { method, headers: bearer(token, { 'content-type': JSONAPI }), body });
      expect(res.status).toBe(method === 'POST' ? 201 : 200);
      const echo = await readJson(res);
      expect(echo.method).toBe(method);
      expect(echo.body).toBe(body);
      expect(echo.headers['content-type']).toBe(JSONAPI);
    }
    const deleted = await fetch(`${gateway.url}/v1/incidents/1`, { method: 'DELETE', headers: bearer(token) });
    expect((await readJson(deleted)).method).toBe('DELETE');
  });

  it('refuses a body whose Content-Length is over the limit without calling the service', async () => {
    const before = upstream.received.length;
    const res = await fetch(`${gateway.url}/v1/incidents`, {
      method: 'POST',
      headers: bearer(token, { 'content-type': JSONAPI }),
      body: 'x'.repeat(LIMIT + 1),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain(JSONAPI);
    expect((await readJson(res)).errors[0]).toMatchObject({ status: '413', code: 'payload_too_large' });
    expect(upstream.received.length).toBe(before);
  });

  it('counts chunked bodies as they stream: under the limit passes, over it is cut with 413', async () => {
    const small = await sendChunked(gateway.url, token, [Buffer.alloc(1000, 'a'), Buffer.alloc(1000, 'b')], true);
    expect(small.status).toBe(201);
    expect(JSON.parse(small.body).body).toBe('a'.repeat(1000) + 'b'.repeat(1000));

    const before = upstream.received.length;
    // The client never ends its body: only the limit can stop it.
    const big = await sendChunked(
      gateway.url,
      token,
      [Buffer.alloc(LIMIT / 2, 'x'), Buffer.alloc(LIMIT / 2, 'y'), Buffer.alloc(10, 'z')],
      false,
    );
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).errors[0].code).toBe('payload_too_large');
    await new Promise((r) => setTimeout(r, 100));
    expect(upstream.received.length).toBe(before);
    // The upstream connection pool is still healthy.
    expect((await fetch(`${gateway.url}/v1/incidents`, { headers: bearer(token) })).status).toBe(200);
  });

  it('answers 404 for an unknown /v1 path and 503 for a service that is not deployed', async () => {
    const unknown = await fetch(`${gateway.url}/v1/environmentsX`, { headers: bearer(token) });
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).errors[0]).toMatchObject({ status: '404', code: 'route_not_found' });
    const undeployed = await fetch(`${gateway.url}/v1/alert_groups`, { headers: bearer(token) });
    expect(undeployed.status).toBe(503);
    expect(undeployed.headers.get('content-type')).toContain(JSONAPI);
    expect((await readJson(undeployed)).errors[0]).toMatchObject({ status: '503', code: 'not_deployed' });
  });

  it('maps upstream failures: refused 503, reset 502, too slow 504', async () => {
    const refused = await fetch(`${gateway.url}/v1/communications/types`, { headers: bearer(token) });
    expect(refused.status).toBe(503);
    expect((await readJson(refused)).errors[0]).toMatchObject({ status: '503', code: 'upstream_unavailable' });

    const reset = await fetch(`${gateway.url}/v1/incidents/reset`, { headers: bearer(token) });
    expect(reset.status).toBe(502);
    expect((await readJson(reset)).errors[0]).toMatchObject({ status: '502', code: 'bad_gateway' });

    const started = Date.now();
    const slow = await fetch(`${gateway.url}/v1/incidents/slow`, { headers: bearer(token) });
    expect(slow.status).toBe(504);
    expect(slow.headers.get('x-ratelimit-limit')).toBe('1000, 1000;window=60');
    expect((await readJson(slow)).errors[0]).toMatchObject({ status: '504', code: 'gateway_timeout' });
    expect(Date.now() - started).toBeLessThan(1200);

    expect((await fetch(`${gateway.url}/v1/incidents`, { headers: bearer(token) })).status).toBe(200);
  });

  it('serves only /healthz, /readyz and /v1 — other paths are JSON:API 404s', async () => {
    const res = await fetch(`${gateway.url}/v2/environments`, { headers: bearer(token) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain(JSONAPI);
  });
});
