import express, { type Express, type RequestHandler } from 'express';
import { principalMiddleware, type PrincipalVerifier } from '@firewatch/auth';
import { errorMiddleware, notFoundMiddleware } from '@firewatch/errors';
import { jsonApiBody, mediaTypeMiddleware } from '@firewatch/jsonapi';
import { type Logger, requestIdMiddleware } from '@firewatch/logger';
import { captureRouteTemplates, httpMetrics, METRICS_PATH, metricsHandler, type Metrics } from '@firewatch/metrics';
import { httpSpanMiddleware } from '@firewatch/tracing';
import { healthRoutes, type ReadinessChecks } from './health.routes.js';
import { idempotencyMiddleware, type IdempotencyOptions } from './idempotency.middleware.js';
import { middlewareChain } from './middleware-chain.js';

export interface ServiceAppDeps {
  logger: Logger;
  /** Verifies the gateway-signed principal of every `/v1` request. */
  principals: PrincipalVerifier;
  /** Routers (or handlers) mounted at the root after the `/v1` principal check and media-type rules, in order. */
  routers: RequestHandler[];
  /** Readiness checks (database, broker); each throws when not ready. */
  readiness?: ReadinessChecks;
  /** Served unauthenticated at `/openapi.json` (internal port only). */
  openapi?: unknown;
  bodyLimit?: string | number;
  /** `Idempotency-Key` on `/v1` writes, kept in this database; every service that serves writes sets it. */
  idempotency?: IdempotencyOptions;
  /**
   * The process's metrics: each request counted and timed by its route template, and
   * `GET /metrics` served without a principal (the port is internal: docs/operations.md).
   */
  metrics?: Metrics;
}

/**
 * One `http`-level line per request: method, path (no query), status, duration. Skipped
 * when the level is above `http`: winston would run every format (redaction, JSON) only
 * for the transport to drop the line.
 */
function accessLog(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    if (!logger.isLevelEnabled('http')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.http('request', { method: req.method, path: req.path, status: res.statusCode, duration_ms: Math.round(ms * 100) / 100 });
    });
    next();
  };
}

// Express matches paths case-insensitively: `/V1/...` is an API path too.
const API_PATH = /^\/v1\//i;
// The paths `app.use('/v1', ...)` matches: `/v1` itself and every path under it, in any case.
const V1_MOUNT = /^\/v1(?:\/|$)/i;

/**
 * The HTTP shell every domain service shares: request ids, metrics, access log, health,
 * the gateway principal check on `/v1`, JSON:API media types, and one error mapper.
 */
export function createServiceApp(deps: ServiceAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.metrics) captureRouteTemplates(app);
  // Before the routers: auth mounts its OAuth server at the root, last, and it would answer these.
  // One router for the probes' paths, which an API request (`/v1/...`) skips without walking its routes.
  const probes = express.Router();
  probes.use(healthRoutes(deps.readiness));
  if (deps.metrics) probes.get(METRICS_PATH, metricsHandler(deps.metrics));
  if (deps.openapi)
    probes.get('/openapi.json', (_req, res) => {
      res.json(deps.openapi);
    });
  const probing: express.RequestHandler = (req, res, next) => (API_PATH.test(req.path) ? next() : probes(req, res, next));
  // The request checks of every path express's mount at `/v1` would match, in this order.
  const v1 = [principalMiddleware(deps.principals), mediaTypeMiddleware(), ...jsonApiBody(deps.bodyLimit ?? '1mb')];
  if (deps.idempotency) v1.push(idempotencyMiddleware(deps.idempotency, deps.logger));
  const v1Checks = middlewareChain(v1);
  // No mount at `/v1`: express would match its path, strip and restore it, and step
  // through its router again for every API request. None of the checks reads the
  // stripped `req.url` (the principal's binding and idempotency read `originalUrl`).
  const checking: express.RequestHandler = (req, res, next) => (V1_MOUNT.test(req.path) ? v1Checks(req, res, next) : next());
  // What every request passes, in this order, as one layer (middlewareChain): request id,
  // metrics, access log, the probes, then (after health and metrics, which probes call
  // every few seconds) a span per API request, continuing the gateway's trace, and the
  // `/v1` checks: the gateway principal, JSON:API media types, the body, idempotency.
  const shell = middlewareChain([
    requestIdMiddleware(),
    ...(deps.metrics ? [httpMetrics(deps.metrics)] : []),
    accessLog(deps.logger),
    probing,
    httpSpanMiddleware({ name: 'service', continueTrace: true }),
    checking,
  ]);
  // `routers`: what it chooses from, for tools that list an app's routes (as the resource kit's dispatch).
  app.use(Object.assign(shell, { routers: [probes] }));
  for (const router of deps.routers) app.use(router);
  app.use(notFoundMiddleware());
  app.use(errorMiddleware(deps.logger));
  return app;
}
