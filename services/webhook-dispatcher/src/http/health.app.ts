import express, { type Express } from 'express';
import { requestIdMiddleware } from '@firewatch/logger';

/**
 * The dispatcher serves no API, only `GET /healthz` (alive) and `GET /readyz`
 * (database reachable, consuming from the broker).
 */
export function createHealthApp(readiness: Record<string, () => Promise<unknown>>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestIdMiddleware());
  app.get('/healthz', (_req, res) => { res.json({ status: 'ok' }); });
  app.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of Object.entries(readiness)) {
      try { await check(); checks[name] = 'ok'; } catch { checks[name] = 'failing'; ready = false; }
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  app.use((_req, res) => { res.status(404).json({ errors: [{ status: '404', code: 'not_found', title: 'Not Found' }] }); });
  return app;
}
