import { jest } from '@jest/globals';
import http from 'node:http';
import { createLogger } from '@firewatch/logger';
import { listen } from '@firewatch/testing';
import express from 'express';
import { healthRoutes, serve } from '../src/index.js';

describe('healthRoutes', () => {
  it('answers /healthz always and /readyz with every check named, 503 when one fails', async () => {
    let dbUp = true;
    const app = express().use(healthRoutes({ database: async () => { if (!dbUp) throw new Error('down'); }, broker: async () => undefined }));
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
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => { exits.push(code); }) as never);
    let stopped = false;
    const app: http.RequestListener = (_req, res) => { setTimeout(() => res.end('done'), 150); };
    const server = await serve(app, { port: 0, host: '127.0.0.1', logger, graceMs: 2000, onShutdown: async () => { stopped = true; } });
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
});
