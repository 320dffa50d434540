import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler } from 'express';
import { UnauthorizedError } from '@firewatch/errors';
import { httpMetrics, METRICS_PATH, metricsHandler, routeTemplateOf, UNMATCHED_ROUTE, type Metrics } from '@firewatch/metrics';
import { createRouteLabeler } from '../domain/route-labels.js';
import type { Route } from '../domain/routes.js';
import { bearerToken } from './authenticate.middleware.js';

/** Who may read the gateway's `/metrics` (METRICS_PUBLIC, METRICS_TOKEN). */
export interface MetricsAccess {
  /** Anyone who reaches the gateway. */
  public: boolean;
  /** Otherwise a scraper presenting this bearer token; with neither, nobody (404). */
  token?: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Counts and times every request of the gateway by route: its express route
 * (`/healthz`, `/docs`), else the route-table prefix it is forwarded under, else
 * `unmatched`. Read at the end of the request, off the forwarding path.
 */
export function gatewayHttpMetrics(metrics: Metrics, routes?: readonly Route[]): RequestHandler {
  const label = createRouteLabeler(routes);
  const routeOf = (req: Request) => {
    const template = routeTemplateOf(req);
    if (template !== UNMATCHED_ROUTE) return template;
    const url = req.originalUrl;
    const query = url.indexOf('?');
    return label(query === -1 ? url : url.slice(0, query)) ?? UNMATCHED_ROUTE;
  };
  return httpMetrics(metrics, { routeOf });
}

/**
 * `GET /metrics` on the public port only when configured: the public, with
 * METRICS_PUBLIC; a scraper with `Authorization: Bearer <METRICS_TOKEN>` (else 401); and
 * without either, nobody: the path answers as any unknown one does (404).
 */
export function metricsRoutes(metrics: Metrics, access: MetricsAccess): Router {
  const router = Router();
  const serve = metricsHandler(metrics);
  const expected = access.token === undefined ? undefined : digest(access.token);
  router.get(METRICS_PATH, (req, res, next) => {
    if (access.public) return serve(req, res, next);
    if (expected === undefined) return next();
    const given = bearerToken(req.headers.authorization);
    // Digests of equal length, so the comparison takes the same time whatever was sent.
    if (given === undefined || !timingSafeEqual(digest(given), expected))
      return next(
        new UnauthorizedError('Reading metrics takes the metrics token (METRICS_TOKEN).', {
          code: 'invalid_metrics_token',
          headers: { 'WWW-Authenticate': 'Bearer realm="firewatch-metrics"' },
        }),
      );
    return serve(req, res, next);
  });
  return router;
}
