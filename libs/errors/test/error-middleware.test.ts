import express from 'express';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createLogger } from '@firewatch/logger';
import { errorMiddleware, notFoundMiddleware, RateLimitedError, UnauthorizedError, ValidationError } from '../src/index.js';

async function serve(app: express.Express) {
  const server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('errorMiddleware', () => {
  const logs: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => logs.push(c.toString()));
  const app = express();
  app.use(express.json({ type: () => true }));
  app.get('/401', () => {
    throw new UnauthorizedError();
  });
  app.get('/422', () => {
    throw new ValidationError([{ pointer: '/data/attributes/name', detail: 'name is required' }]);
  });
  app.get('/429', () => {
    throw new RateLimitedError({ 'X-RateLimit-Remaining': '0' });
  });
  app.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  app.post('/json', (_req, res) => {
    res.json({});
  });
  app.delete('/things/:id', (_req, res) => {
    res.json({});
  });
  app.get('/pg22', () => {
    throw Object.assign(new Error('value "99999999999" is out of range for type integer'), { code: '22003', severity: 'ERROR' });
  });
  app.use(notFoundMiddleware());
  app.use(errorMiddleware(createLogger({ service: 't', stream })));
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve(app);
  });
  afterAll(() => server.close());

  it('answers 401 with WWW-Authenticate and a JSON:API error', async () => {
    const res = await fetch(`${server.url}/401`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    expect((await res.json()).errors[0]).toMatchObject({ status: '401', code: 'unauthorized' });
  });

  it('answers 422 with a pointer per issue', async () => {
    const body = await (await fetch(`${server.url}/422`)).json();
    expect(body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });

  it('answers 429 with the specified body', async () => {
    const res = await fetch(`${server.url}/429`);
    expect(res.status).toBe(429);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await res.json()).toEqual({ error: 'Rate limit exceeded. Try again later.' });
  });

  it('hides 5xx internals but logs them with the request id', async () => {
    const res = await fetch(`${server.url}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('hunter2');
    await new Promise((r) => setImmediate(r));
    expect(logs.join('')).toContain('request failed');
  });

  it('answers PostgreSQL data exceptions with 400, not 500', async () => {
    const res = await fetch(`${server.url}/pg22`);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe('invalid_value');
  });

  it('maps malformed JSON to 400 and unknown routes to 404', async () => {
    const bad = await fetch(`${server.url}/json`, { method: 'POST', body: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].code).toBe('malformed_json');
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('answers a body that does not decompress as its Content-Encoding says with 400', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await fetch(`${server.url}/json`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].code).toBe('unreadable_body');
    }
  });

  it('answers a path parameter that is no valid percent-encoding with 400', async () => {
    const res = await fetch(`${server.url}/things/%E0%A4%A`, { method: 'DELETE' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe('malformed_path');
  });
});
