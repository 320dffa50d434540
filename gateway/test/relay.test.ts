import http from 'node:http';
import net from 'node:net';
import { listen, type Listening } from '@firewatch/testing';
import { type FakeAuth, freshPrincipal, startFakeAuth } from './support/fake-services.js';
import { startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const token = 'fw_relay_key';
const MB = 1024 * 1024;
const BLOCK = 64 * 1024;
/**
 * The byte at `offset` of the big answer: neighbouring blocks differ, so a freed (emptied) or
 * wrongly reused block shows; the pattern repeats every 16 MiB, so it does not catch a whole
 * block relayed 16 MiB off.
 */
const bigByte = (offset: number) => (offset + (offset >>> 16) * 7) & 0xff;

/** Raw HTTP/1.1 exchange with the gateway over one socket: what the client receives until the gateway closes or `ms` pass. */
function raw(port: number, request: string, ms = 1000): Promise<{ data: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data, closed: false });
    }, ms);
    socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data, closed: true });
    });
    socket.on('error', reject);
  });
}

describe('gateway relay of answers', () => {
  let auth: FakeAuth;
  let upstream: Listening;
  let gateway: StartedGateway;
  let port: number;
  const seen: { method: string; url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  // Set by the big-answer route: whether its answer was cut off (the client left).
  let bigClosedEarly: Promise<boolean> = Promise.resolve(false);
  let bigWritten = 0;
  let laterSocket: net.Socket | undefined;

  beforeAll(async () => {
    auth = await startFakeAuth(systemTokens);
    upstream = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString(), headers: req.headers });
        if (req.url === '/v1/incidents/cut') {
          // Headers and part of a declared body, then the connection is reset.
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
          res.write('x'.repeat(100));
          setTimeout(() => req.socket.destroy(), 50);
        } else if (req.url === '/v1/incidents/cut-chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('x'.repeat(100));
          setTimeout(() => req.socket.destroy(), 50);
        } else if (req.url === '/v1/incidents/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          let i = 0;
          const tick = () => {
            if (i === 20) return res.end();
            res.write(`part ${i++};`);
            setImmediate(tick);
          };
          tick();
        } else if (req.url === '/v1/incidents/big') {
          // 64 MB, written only as fast as it is taken; neighbouring blocks' bytes differ (bigByte).
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(64 * MB) });
          bigWritten = 0;
          bigClosedEarly = new Promise((resolve) => {
            res.on('close', () => resolve(!res.writableFinished));
            const pump = () => {
              while (bigWritten < 64 * MB) {
                const block = Buffer.allocUnsafe(BLOCK);
                for (let i = 0; i < BLOCK; i++) block[i] = bigByte(bigWritten + i);
                bigWritten += BLOCK;
                if (!res.write(block)) return res.once('drain', pump);
              }
              res.end();
            };
            pump();
          });
        } else if (req.url!.startsWith('/ingest/')) {
          setTimeout(() => res.writeHead(401).end(), 50);
        } else if (req.url === '/v1/incidents/later') {
          // Answers after the client left; whether the gateway keeps this connection open is told.
          laterSocket = req.socket;
          setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' }).end('hello'), 200);
        } else if (req.url === '/v1/incidents/empty') {
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' }).end(req.method === 'HEAD' ? undefined : 'hello');
        }
      });
    });
    gateway = await startGateway({
      authUrl: auth.url,
      env: {
        INCIDENT_CONFIG_URL: upstream.url,
        ON_CALL_URL: upstream.url,
        RATE_LIMIT_READS: '1000',
        RATE_LIMIT_TEAM_READS: '1000',
        RATE_LIMIT_WRITES: '1000',
        RATE_LIMIT_TEAM_WRITES: '1000',
        UPSTREAM_TIMEOUT_MS: '3000',
      },
    });
    port = Number(new URL(gateway.url).port);
    auth.grant(token, freshPrincipal({ record_ids: ['r1'] }));
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
    await auth.close();
  });

  const get = (path: string, method = 'GET', extra = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${token}\r\n${extra}\r\n`;

  it('destroys the client connection when the service resets mid-body (declared length)', async () => {
    const { data, closed } = await raw(port, get('/v1/incidents/cut'));
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed).toBe(true);
    expect(data.length - data.indexOf('\r\n\r\n') - 4).toBeLessThan(1000);
  });

  it('destroys the client connection when the service resets mid-body (chunked): no last chunk', async () => {
    const { data, closed } = await raw(port, get('/v1/incidents/cut-chunked'));
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed).toBe(true);
    expect(data).not.toMatch(/\r\n0\r\n\r\n$/);
  });

  it('relays a chunked answer intact', async () => {
    const res = await fetch(`${gateway.url}/v1/incidents/chunked`, { headers: { authorization: `Bearer ${token}` } });
    expect(await res.text()).toBe(Array.from({ length: 20 }, (_, i) => `part ${i};`).join(''));
  });

  it('answers HEAD and 204 without a body, and keeps the connection usable', async () => {
    const head = await raw(port, get('/v1/incidents/h', 'HEAD') + get('/v1/incidents/empty') + get('/v1/incidents/h'), 500);
    const answers = head.data.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 [^]*content-length: 5\r\n[^]*\r\n\r\n$/i);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 204 [^]*\r\n\r\n$/);
    expect(answers[2]).toMatch(/\r\n\r\nhello$/);
  });

  it('ends a POST with Content-Length: 0 and a chunked GET with its body, keeping the connection in step', async () => {
    seen.length = 0;
    const { data } = await raw(
      port,
      get('/v1/incidents/a', 'POST', 'Content-Length: 0\r\n') +
        get('/v1/incidents/b', 'GET', 'Transfer-Encoding: chunked\r\n') +
        '5\r\nhello\r\n0\r\n\r\n' +
        get('/v1/incidents/c', 'GET', 'Content-Length: 3\r\n') +
        'abc' +
        get('/v1/incidents/d'),
      800,
    );
    expect(data.match(/HTTP\/1\.1 200 /g)).toHaveLength(4);
    // Pipelined requests are forwarded side by side: their order upstream is not fixed.
    expect(seen.map((s) => [s.method, s.url, s.body]).sort((a, b) => a[1].localeCompare(b[1]))).toEqual([
      ['POST', '/v1/incidents/a', ''],
      ['GET', '/v1/incidents/b', 'hello'],
      ['GET', '/v1/incidents/c', 'abc'],
      ['GET', '/v1/incidents/d', ''],
    ]);
  });

  it('holds a big answer back while the client reads nothing, and releases the service when the client leaves', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write(get('/v1/incidents/big'));
    socket.pause();
    await new Promise((r) => setTimeout(r, 800));
    // Backpressure: only what the sockets' buffers hold has been taken, not the 64 MB.
    expect(bigWritten).toBeLessThan(16 * MB);
    const rss = process.memoryUsage().rss;
    socket.destroy();
    expect(await bigClosedEarly).toBe(true);
    expect(process.memoryUsage().rss - rss).toBeLessThan(32 * MB);
    // The pool still works.
    const res = await fetch(`${gateway.url}/v1/incidents/x`, { headers: { authorization: `Bearer ${token}` } });
    expect(await res.text()).toBe('hello');
  });

  it('relays a big answer whole and unaltered to a slow reader', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${gateway.url}/v1/incidents/big`, { headers: { authorization: `Bearer ${token}` } }, resolve),
    );
    let got = 0;
    let altered = 0;
    res.on('data', (c: Buffer) => {
      // The gateway frees each chunk once written (upstream-forwarder.ts): never before the socket has sent it.
      for (let i = 0; i < c.length; i++) if (c[i] !== bigByte(got + i)) altered++;
      got += c.length;
      res.pause();
      setTimeout(() => res.resume(), 1);
    });
    await new Promise((r) => res.on('end', r));
    expect(got).toBe(64 * MB);
    expect(altered).toBe(0);
  }, 30_000);

  it('forwards nothing for a client that left before its request was sent: no work upstream, no 401 counted without its address', async () => {
    seen.length = 0;
    const id = '0b4a3d5e-1f7c-4b1a-9a51-3f2f6c1d2e4b';
    for (let i = 0; i < 5; i++) auth.grant(`fw_gone_${i}`, freshPrincipal({ record_ids: ['r1'] }));
    /** Sends a request with its half-close: the gateway aborts it (it does not half-open) and the socket is gone. */
    const leave = (request: string) =>
      new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    await Promise.all([
      // Uncached tokens: the client is gone by the time auth answers.
      ...Array.from({ length: 5 }, (_, i) => leave(get(`/v1/incidents/gone-${i}`).replace(token, `fw_gone_${i}`))),
      ...Array.from({ length: 5 }, (_, i) => leave(`GET /ingest/heartbeats/${id}/wrong-${i} HTTP/1.1\r\nHost: gw\r\n\r\n`)),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((s) => s.url.startsWith('/v1/'))).toEqual([]);
    // A ping forwarded before the half-close was seen carries the client's address (X-Forwarded-For, and
    // the address a 401 counts against), never none.
    expect(seen.filter((s) => !s.headers['x-forwarded-for'])).toEqual([]);
    // A client that stays is forwarded as ever.
    expect((await fetch(`${gateway.url}/ingest/heartbeats/${id}/wrong`)).status).toBe(401);
  });

  it('lets go of the service connection when the client left before the answer came', async () => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(get('/v1/incidents/later')));
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    // The answer came at 200 ms; the upstream timeout (3 s) is far off.
    await new Promise((r) => setTimeout(r, 500));
    expect(laterSocket?.destroyed).toBe(true);
  });
});
