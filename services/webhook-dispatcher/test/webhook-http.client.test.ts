import { Writable } from 'node:stream';
import { createLogger } from '@firewatch/logger';
import { createAddressPolicy } from '../src/domain/address-policy.js';
import { attemptHeaders } from '../src/domain/delivery-job.js';
import type { ClaimedDelivery } from '../src/domain/dispatch.types.js';
import { createWebhookHttpClient } from '../src/outbound/webhook-http.client.js';
import { startReceiver } from './support.js';

const loopback = createAddressPolicy(['127.0.0.0/8', '::1/128']);

describe('outbound webhook requests', () => {
  it('refuses loopback after resolution unless allowed, by name and by literal address; the result names neither, the log does', async () => {
    const rx = await startReceiver();
    const log: string[] = [];
    const logger = createLogger({
      service: 'test',
      level: 'warn',
      stream: new Writable({
        write(chunk, _enc, done) {
          log.push(String(chunk));
          done();
        },
      }),
    });
    const strict = createWebhookHttpClient({ policy: createAddressPolicy([]), timeoutMs: 2000, maxResponseBytes: 1000, logger });
    const port = new URL(rx.url).port;
    const byName = await strict(`http://localhost:${port}/`, {}, '{}');
    expect(byName).toMatchObject({ statusCode: null, error: 'destination not allowed' });
    const byLiteral = await strict(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(byLiteral.error).toBe('destination not allowed');
    expect(rx.received).toHaveLength(0);
    expect(log.join('')).toMatch(/localhost.*loopback address, refused/);
    expect(log.join('')).toMatch(/127\.0\.0\.1 is a loopback address/);
    const unknown = await strict('http://no-such-host.invalid/', {}, '{}');
    expect(unknown.error).toBe('host not found');
    const allowed = createWebhookHttpClient({ policy: loopback, timeoutMs: 2000, maxResponseBytes: 1000 });
    expect((await allowed(`http://localhost:${port}/`, {}, '{}')).statusCode).toBe(200);
    strict.close();
    allowed.close();
    await rx.close();
  });

  it('parses an endpoint URL and judges its literal address once, not on every attempt; an invalid URL throws in protocolOf as new URL does', async () => {
    const rx = await startReceiver();
    const judged: string[] = [];
    const policy = { refusal: (address: string) => (judged.push(address), loopback.refusal(address)) };
    const post = createWebhookHttpClient({ policy, timeoutMs: 2000, maxResponseBytes: 100 });
    for (let i = 0; i < 3; i++) expect((await post(`${rx.url}/hooks`, {}, '{}')).statusCode).toBe(200);
    expect(post.protocolOf(`${rx.url}/hooks`)).toBe('http:');
    expect(judged).toEqual(['127.0.0.1']);
    expect(rx.received).toHaveLength(3);
    expect(() => post.protocolOf('not a url')).toThrow(/Invalid URL/);
    expect((await post('not a url', {}, '{}')).error).toBe('invalid URL');
    post.close();
    await rx.close();
  });

  it("sends each header the dispatcher sets once, whatever a custom one is named, and a URL's Host and credentials as Node made them", async () => {
    const rx = await startReceiver();
    const post = createWebhookHttpClient({ policy: loopback, timeoutMs: 2000, maxResponseBytes: 100 });
    try {
      const d = { id: 'msg_1', payload: '{"name":"é \\"q\\""}' } as ClaimedDelivery;
      // Rows the webhooks service would refuse (reserved names), written around it.
      const custom = [
        { name: 'Content-Type', value: 'text/plain' },
        { name: 'HOST', value: 'elsewhere.example' },
        { name: 'Webhook-Signature', value: 'v1,forged' },
        { name: 'X-Team', value: 'blue' },
      ];
      expect((await post(`${rx.url}/hooks?a=1`, attemptHeaders(d, `whsec_${'A'.repeat(32)}`, custom), d.payload)).statusCode).toBe(200);
      const [sent] = rx.received;
      expect(sent.headers).toMatchObject({
        'content-type': 'application/json',
        host: new URL(rx.url).host,
        'x-team': 'blue',
        'content-length': String(Buffer.byteLength(d.payload)),
      });
      expect(sent.headers['webhook-signature']).not.toMatch(/forged/);
      expect(sent.body).toBe(d.payload);

      const withCredentials = rx.url.replace('http://', 'http://user:p%40ss@');
      await post(`${withCredentials}/`, {}, '{}');
      expect(rx.received[1].headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
      await post(`${withCredentials}/`, { Authorization: 'Bearer custom' }, '{}');
      expect(rx.received[2].headers.authorization).toBe('Bearer custom');
    } finally {
      post.close();
      await rx.close();
    }
  });

  it('does not follow redirects, caps the response body and reads Retry-After', async () => {
    const rx = await startReceiver((r): { status: number; headers: Record<string, string>; body?: string } =>
      r.body === 'redirect'
        ? { status: 302, headers: { location: 'http://127.0.0.1:1/' } }
        : { status: 429, headers: { 'retry-after': '7' }, body: 'x'.repeat(5000) },
    );
    const post = createWebhookHttpClient({ policy: loopback, timeoutMs: 2000, maxResponseBytes: 100 });
    expect(await post(rx.url, {}, 'redirect')).toMatchObject({ statusCode: 302, error: null });
    const big = await post(rx.url, {}, 'big');
    expect(big).toMatchObject({ statusCode: 429, retryAfterMs: 7000 });
    expect(big.responseBody).toHaveLength(100);
    expect(big.error).toMatch(/larger than 100 bytes/);
    expect(rx.received).toHaveLength(2);
    post.close();
    await rx.close();
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    const slow = await import('node:http').then((http) => {
      const server = http.createServer(() => {
        /* never answers */
      });
      return new Promise<import('node:http').Server>((r) => server.listen(0, '127.0.0.1', () => r(server)));
    });
    const post = createWebhookHttpClient({ policy: loopback, timeoutMs: 300, maxResponseBytes: 100 });
    const started = Date.now();
    const result = await post(`http://127.0.0.1:${(slow.address() as { port: number }).port}/`, {}, '{}');
    expect(result).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
    // Without the timer the request would wait out the test's 30 s; the bound leaves a loaded
    // runner room (CI saw 4.3 s for this 300 ms timer with the e2e suites running beside it).
    expect(Date.now() - started).toBeLessThan(15_000);
    post.close();
    slow.closeAllConnections();
    slow.close();
    await rx.close();
  });
});
