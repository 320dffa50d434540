import express, { type Express } from 'express';
import { healthRoutes, type ReadinessChecks } from '@firewatch/http';
import { requestIdMiddleware } from '@firewatch/logger';
import { captureRouteTemplates, httpMetrics, METRICS_PATH, metricsHandler, type Metrics } from '@firewatch/metrics';

/**
 * The dispatcher serves no API, only `GET /healthz` (alive), `GET /readyz` (database
 * reachable, consuming from the broker) and, given its metrics, `GET /metrics`.
 */
export function createHealthApp(readiness: ReadinessChecks, metrics?: Metrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestIdMiddleware());
  if (metrics) {
    captureRouteTemplates(app);
    app.use(httpMetrics(metrics));
    app.get(METRICS_PATH, metricsHandler(metrics));
  }
  app.use(healthRoutes(readiness));
  app.use((_req, res) => {
    res.status(404).json({ errors: [{ status: '404', code: 'not_found', title: 'Not Found' }] });
  });
  return app;
}
