import { jest } from '@jest/globals';
import type http from 'node:http';
import { createLogger } from '@firewatch/logger';
import { createMetrics } from '@firewatch/metrics';
import { createPrincipalVerifier, getPrincipal, PRINCIPAL_HEADER } from '@firewatch/auth';
import { MAX_BODY_DEPTH } from '@firewatch/jsonapi';
import { listen, signAsGateway, TEST_PRINCIPAL_KEYS, testPrincipal } from '@firewatch/testing';
import express from 'express';
import { createServiceApp, healthRoutes, serve } from '../src/index.js';

describe('healthRoutes', () => {
  it('answers /healthz always and /readyz with every check named, 503 when one fails', async () => {
    let dbUp = true;
    const app = express().use(
      healthRoutes({
        database: async () => {
          if (!dbUp) throw new Error('down');
        },
        broker: async () => undefined,
      }),
    );
    const server = await listen(app);
    try {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
      let res = await fetch(`${server.url}/readyz`);
      expect([res.status, await res.json()]).toEqual([200, { status: 'ready', checks: { database: 'ok', broker: 'ok' } }]);
      dbUp = false;
      res = await fetch(`${server.url}/readyz`);
      expect([res.status, await res.json()]).toEqual([503, { status: 'not_ready', checks: { database: 'failing', broker: 'ok' } }]);
    } finally {
      await server.close();
    }
  });
});

describe('serve', () => {
  it('on SIGTERM lets the in-flight request finish, then runs onShutdown and exits 0', async () => {
    const logger = createLogger({ service: 'http-test', level: 'silent' });
    const exits: number[] = [];
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      exits.push(code);
    }) as never);
    let stopped = false;
    const app: http.RequestListener = (_req, res) => {
      setTimeout(() => res.end('done'), 150);
    };
    const server = await serve(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      graceMs: 2000,
      onShutdown: async () => {
        stopped = true;
      },
    });
    try {
      const { port } = server.address() as { port: number };
      const inFlight = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 30));
      process.emit('SIGTERM');
      expect(await inFlight).toBe('done');
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped).toBe(true);
      expect(exits).toEqual([0]);
    } finally {
      exit.mockRestore();
      server.close();
    }
  });
  it("makes an express app's requests and responses with its prototypes, which express then finds set", async () => {
    const logger = createLogger({ service: 'http-test', level: 'silent' });
    const exits: number[] = [];
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      exits.push(code);
    }) as never);
    const app = express().get('/where', (req, res) => {
      res.status(200).json({ path: req.path, query: req.query });
    });
    const server = await serve(app, { port: 0, host: '127.0.0.1', logger, graceMs: 2000, onShutdown: async () => undefined });
    const made: boolean[] = [];
    // Before the app's listener: the objects as the server made them.
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      made.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    try {
      const { port } = server.address() as { port: number };
      const answer = await fetch(`http://127.0.0.1:${port}/where?x=1`);
      expect([answer.status, await answer.json()]).toEqual([200, { path: '/where', query: { x: '1' } }]);
      expect(made).toEqual([true, true]);
    } finally {
      process.emit('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      expect(exits).toEqual([0]);
      exit.mockRestore();
    }
  });
});

describe('createServiceApp bodies', () => {
  it('answers a body nested past the limit with a JSON:API 400, and takes one just within it', async () => {
    const logger = createLogger({ service: 'http-test', level: 'silent' });
    const router = express.Router().post('/v1/echo', (req, res) => {
      res.status(200).json({ ok: true });
    });
    const app = createServiceApp({
      logger,
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'http-test' }),
      routers: [router],
    });
    const server = await listen(app);
    const nested = (depth: number) => '{"data":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const post = async (body: string) =>
      fetch(`${server.url}/v1/echo`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/vnd.api+json',
          [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), 'http-test', 'POST', '/v1/echo'),
        },
      });
    try {
      expect((await post(nested(MAX_BODY_DEPTH))).status).toBe(200);
      for (const depth of [MAX_BODY_DEPTH + 1, 10_000]) {
        const res = await post(nested(depth));
        expect(res.status).toBe(400);
        expect((await res.json()).errors[0]).toMatchObject({ status: '400', code: 'too_deep' });
      }
    } finally {
      await server.close();
    }
  });
});

describe('createServiceApp access log', () => {
  it('writes one line per request at level http, with status and duration, and none above it', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new (await import('node:stream')).Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = createLogger({ service: 'http-test', level: 'http', stream });
    const app = createServiceApp({
      logger,
      routers: [],
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'http-test' }),
    });
    const server = await listen(app);
    try {
      await fetch(`${server.url}/healthz?x=1`);
      for (let i = 0; i < 100 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 'http',
          message: 'request',
          method: 'GET',
          path: '/healthz',
          status: 200,
          duration_ms: expect.any(Number),
        }),
      ]);
      logger.level = 'warn';
      await fetch(`${server.url}/healthz`);
      // A line would be written as the response finishes; give it ample time to show.
      await new Promise((r) => setTimeout(r, 100));
      expect(lines).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('createServiceApp principal check', () => {
  it('answers a token it verified before only for its method and path, its audience, and never an ingestion one', async () => {
    const router = express.Router().all('/v1/things/:id', (req, res) => {
      res.status(200).json({ user_id: getPrincipal(req).user_id });
    });
    const app = createServiceApp({
      logger: createLogger({ service: 'http-test', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'http-test' }),
      routers: [router],
    });
    const server = await listen(app);
    const call = async (method: string, path: string, token: string) =>
      (await fetch(`${server.url}${path}`, { method, headers: { [PRINCIPAL_HEADER]: token } })).status;
    try {
      const token = await signAsGateway(testPrincipal({ user_id: 7 }), 'http-test', 'GET', '/v1/things/1');
      // The second call is answered from what the first verified (verifyKnown): the same checks.
      for (let i = 0; i < 2; i++) {
        expect(await call('GET', '/v1/things/1', token)).toBe(200);
        expect(await call('GET', '/v1/things/2', token)).toBe(401);
        expect(await call('DELETE', '/v1/things/1', token)).toBe(401);
        expect(await call('GET', '/v1/things/1?x=1', token)).toBe(200);
      }
      const elsewhere = await signAsGateway(testPrincipal(), 'webhooks', 'GET', '/v1/things/1');
      const ingestion = await signAsGateway({ kind: 'ingestion', source_id: 'x' }, 'http-test', 'GET', '/v1/things/1');
      for (let i = 0; i < 2; i++) {
        expect(await call('GET', '/v1/things/1', elsewhere)).toBe(401);
        expect(await call('GET', '/v1/things/1', ingestion)).toBe(401);
      }
    } finally {
      await server.close();
    }
  });
});

describe('createServiceApp probes', () => {
  it('answers /healthz, /readyz, /metrics and /openapi.json without a principal, and nothing of them under /v1', async () => {
    const app = createServiceApp({
      logger: createLogger({ service: 'http-test', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'http-test' }),
      metrics: createMetrics({ service: 'http-test', defaultMetrics: false }),
      openapi: { openapi: '3.1.0' },
      routers: [],
    });
    const server = await listen(app);
    const status = async (path: string) => (await fetch(`${server.url}${path}`)).status;
    try {
      for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/HEALTHZ']) expect(await status(path)).toBe(200);
      for (const path of ['/v1/healthz', '/V1/metrics', '/v1/openapi.json']) expect(await status(path)).toBe(401);
    } finally {
      await server.close();
    }
  });
});
