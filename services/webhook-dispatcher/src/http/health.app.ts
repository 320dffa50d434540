import express, { type Express } from 'express';
import { healthRoutes, type ReadinessChecks } from '@firewatch/http';
import { requestIdMiddleware } from '@firewatch/logger';

/**
 * The dispatcher serves no API, only `GET /healthz` (alive) and `GET /readyz`
 * (database reachable, consuming from the broker).
 */
export function createHealthApp(readiness: ReadinessChecks): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestIdMiddleware());
  app.use(healthRoutes(readiness));
  app.use((_req, res) => {
    res.status(404).json({ errors: [{ status: '404', code: 'not_found', title: 'Not Found' }] });
  });
  return app;
}
