import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import https from 'node:https';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { PrincipalSigner } from '@firewatch/auth';
import { errorMiddleware, notFoundMiddleware } from '@firewatch/errors';
import { type Logger, requestIdMiddleware } from '@firewatch/logger';
import { httpSpanMiddleware } from '@firewatch/tracing';
import { captureRouteTemplates, type Metrics } from '@firewatch/metrics';
import type { GatewayConfig } from './config.js';
import type { CredentialResolver } from './domain/credential-resolver.js';
import type { RateLimitStore } from './domain/rate-limit.store.js';
import { createUpstreamOpenApiClient } from './data/upstream-openapi.client.js';
import { type ApiDocumentSource, createApiDocumentSource } from './domain/api-document.source.js';
import { createRouteMatcher, ROUTES, type Route, type UpstreamName } from './domain/routes.js';
import { accessLogMiddleware } from './http/access-log.middleware.js';
import { apiDocsRoutes } from './http/api-docs.routes.js';
import { authenticateMiddleware } from './http/authenticate.middleware.js';
import { createAuthFailureGuard } from './domain/auth-failure-guard.js';
import { forwardMiddleware } from './http/forward.middleware.js';
import { healthRoutes } from './http/health.routes.js';
import { alertActionsMiddleware } from './http/alert-actions.middleware.js';
import { ingestMiddleware } from './http/ingest.middleware.js';
import { createIngestLimits } from './domain/ingest-limits.js';
import { gatewayHttpMetrics, metricsRoutes } from './http/metrics.routes.js';
import { rateLimitMiddleware } from './http/rate-limit.middleware.js';
import { forwardedRequestIdMiddleware, requestIdOf } from './http/request-id.middleware.js';
import { createUpstreamForwarder } from './http/upstream-forwarder.js';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  rateLimitStore: RateLimitStore;
  /** 'redis' when the store is shared by replicas; reported by /readyz. */
  rateLimitStoreKind: 'redis' | 'memory';
  credentialResolver: CredentialResolver;
  /** Signs principals with the gateway's private key (PRINCIPAL_SIGNING_KEY). */
  signer: PrincipalSigner;
  routes?: readonly Route[];
  /** The public API's document; by default merged from the configured upstreams' own. */
  apiDocuments?: ApiDocumentSource;
  /** The process's metrics: every request counted and timed; `/metrics` as METRICS_PUBLIC and METRICS_TOKEN allow. */
  metrics?: Metrics;
}

export interface GatewayApp {
  /** Serves every request: the forwarded paths directly, the rest through express. */
  app: RequestListener;
  /** Releases upstream connections, the rate-limit store and the credential cache. */
  close(): Promise<void>;
}

function upstreamUrls(config: GatewayConfig): Record<UpstreamName, string | undefined> {
  return {
    auth: config.AUTH_SERVICE_URL,
    'incident-config': config.INCIDENT_CONFIG_URL,
    communications: config.COMMUNICATIONS_URL,
    'on-call': config.ON_CALL_URL,
    webhooks: config.WEBHOOKS_URL,
  };
}

/**
 * Whether `path` is `/<prefix>` or under it. `anyCase` matches the prefix in any case: the
 * ingestion and action link handlers take a secret out of the path, and `/INGEST/...` must
 * reach them rather than the 404 and the access log with its secret.
 */
function under(path: string, prefix: string, anyCase = false): boolean {
  const head = anyCase ? path.slice(0, prefix.length + 1).toLowerCase() : path;
  return head === prefix || head.startsWith(`${prefix}/`);
}

/** The getter of `name` on `object` or its prototypes. */
function getterOf(object: object, name: string): (this: unknown) => unknown {
  for (let o: object | null = object; o !== null; o = Object.getPrototypeOf(o) as object | null) {
    const get = Object.getOwnPropertyDescriptor(o, name)?.get;
    if (get) return get;
  }
  throw new Error(`no getter ${name}`);
}

/**
 * Runs `handlers` in turn, each one's `next()` calling the following, as an express
 * router mounted at `/` would, without the router's per-request matching and bookkeeping.
 */
function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[i++];
      if (handler === undefined) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * The gateway: authenticate every /v1 request, count it against its credential's limits,
 * and forward it to the owning service with a signed principal.
 */
export function createGatewayApp(deps: GatewayDeps): GatewayApp {
  const { config, logger, rateLimitStore, credentialResolver, signer } = deps;
  const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 256, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  const proxies = new Map<UpstreamName, RequestHandler>();
  for (const [name, baseUrl] of Object.entries(upstreamUrls(config)) as [UpstreamName, string | undefined][]) {
    if (baseUrl === undefined) continue;
    proxies.set(
      name,
      createUpstreamForwarder({
        name,
        baseUrl,
        agents,
        logger,
        signer,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
  }

  const app = express();
  /**
   * Gives a request express's prototype (`path`, `ip`, ...), once. A /v1 request goes
   * without it until something needs more than its path: an uncached credential (the
   * client's address), an error answer. `Object.setPrototypeOf` moves the request to
   * another hidden class, and the properties the chain then adds to it take slow paths:
   * some 10 µs and 1.3 kB of a lookup.
   */
  const asExpress = (req: IncomingMessage): void => {
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
  };
  // Express's own `req.path`, read off a request that does not have its prototype.
  const expressPath = getterOf(app.request, 'path');

  const guard = createAuthFailureGuard({
    store: rateLimitStore,
    limit: config.AUTH_FAILURES_PER_WINDOW,
    windowMs: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
  });
  const v1 = chain(
    authenticateMiddleware(credentialResolver, guard, logger, asExpress),
    rateLimitMiddleware({
      store: rateLimitStore,
      policy: {
        credential: { read: config.RATE_LIMIT_READS, write: config.RATE_LIMIT_WRITES },
        user: { read: config.RATE_LIMIT_USER_READS, write: config.RATE_LIMIT_USER_WRITES },
        team: { read: config.RATE_LIMIT_TEAM_READS, write: config.RATE_LIMIT_TEAM_WRITES },
      },
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    }),
    forwardMiddleware({
      match: createRouteMatcher(deps.routes ?? ROUTES),
      proxies,
    }),
  );
  // Monitoring tools' payloads: the source's secret, not an API credential (ingest.middleware.ts).
  const ingest = ingestMiddleware({
    store: rateLimitStore,
    guard,
    limits: createIngestLimits({ defaultLimit: config.RATE_LIMIT_INGEST, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS }),
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    logger,
    forward: proxies.get('on-call'),
  });
  // The acknowledge/resolve links of pages: the link's token, not an API credential (alert-actions.middleware.ts).
  const alertActions = alertActionsMiddleware({
    store: rateLimitStore,
    guard,
    limit: config.RATE_LIMIT_ALERT_ACTIONS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    logger,
    forward: proxies.get('on-call'),
  });
  // Traces start here (a client's traceparent is not continued); health and metrics make none.
  const span = httpSpanMiddleware({ name: 'gateway', continueTrace: false });

  // What every request passes, as one layer: a request id, metrics, nosniff (no browser may
  // sniff an API answer into something executable), the access log.
  const metrics = deps.metrics ? gatewayHttpMetrics(deps.metrics, deps.routes) : undefined;
  const accessLog = accessLogMiddleware(logger);
  const preludeWith =
    (requestId: ReturnType<typeof forwardedRequestIdMiddleware>): RequestHandler =>
    (req, res, next) => {
      requestId(req, res, () => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (metrics) void metrics(req, res, () => accessLog(req, res, next));
        else accessLog(req, res, next);
      });
    };
  // The forwarded paths' log lines name their request themselves (request-id.middleware.ts);
  // the others (documents, health, metrics, 404s) run in libs/logger's context, as a service's do.
  const prelude = preludeWith(forwardedRequestIdMiddleware());
  const contextPrelude = preludeWith(requestIdMiddleware());
  // The forwarded paths, chosen on their prefix: they never match the health, metrics or
  // documentation routes, which only the other paths reach.
  const forwardedHandler = (path: string): RequestHandler | undefined =>
    under(path, '/v1') ? v1 : under(path, '/ingest', true) ? ingest : under(path, '/alert-actions', true) ? alertActions : undefined;

  app.disable('x-powered-by');
  app.set('etag', false);
  // Who the client is, for the guessing throttle; never "trust everything" (config refuses it).
  app.set('trust proxy', config.TRUSTED_PROXIES);
  if (deps.metrics) captureRouteTemplates(app);
  app.use(contextPrelude);
  app.use(healthRoutes({ store: rateLimitStore, storeKind: deps.rateLimitStoreKind, resolver: credentialResolver }));
  if (deps.metrics) app.use(metricsRoutes(deps.metrics, { public: config.METRICS_PUBLIC, token: config.METRICS_TOKEN }));
  app.use(span);
  app.use(
    apiDocsRoutes(
      deps.apiDocuments ??
        createApiDocumentSource({
          upstreams: upstreamUrls(config),
          fetchDocument: createUpstreamOpenApiClient(),
          logger,
          routes: deps.routes,
        }),
    ),
  );
  const notFound = notFoundMiddleware();
  const answerError = errorMiddleware(logger);
  app.use(notFound);
  app.use(answerError);

  /**
   * A forwarded request gets what express's app and router gave it, without their
   * per-request matching, closures and bookkeeping: the prelude, a span, then its handler.
   * An error, or a handler that passes the request on, is answered as the rest of the
   * express chain would: the 404, the error answer.
   */
  function forward(req: Request, res: Response, handler: RequestHandler): void {
    const fail = (err: unknown): void => {
      asExpress(req);
      try {
        answerError(err, req, res, () => undefined);
      } catch (thrown) {
        // The error answer does not throw; were it to, the connection is dropped (express's
        // final handler would have tried a bare 500).
        logger.error('request failed', { request_id: requestIdOf(req), error: thrown });
        res.destroy();
      }
    };
    // As express's router tells them apart: a falsy value or 'route' passes the request on.
    const next = (err?: unknown): void => {
      asExpress(req);
      if (!err || err === 'route') void notFound(req, res, fail);
      else fail(err);
    };
    try {
      prelude(req, res, () => span(req, res, () => void handler(req, res, next)));
    } catch (thrown) {
      next(thrown);
    }
  }

  const listener: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const path = expressPath.call(req) as string;
    const handler = forwardedHandler(path);
    if (handler === undefined) {
      app(req, res);
      return;
    }
    const request = req as Request;
    // A /v1 request keeps Node's prototype with its path as its own (asExpress, above); an
    // ingestion or link action reads its client's address and rewrites its path at once.
    // The response's methods (json, send, ...) are not used on these paths: it keeps Node's.
    if (handler === v1 && Object.getPrototypeOf(req) !== app.request) (req as { path?: string }).path = path;
    else asExpress(req);
    const response = res as Response;
    // What express sets on every request, and its router on one at the root.
    request.res = response;
    response.req = request;
    request.originalUrl = request.url;
    request.baseUrl = '';
    forward(request, response, handler);
  };

  return {
    app: listener,
    async close() {
      agents.http.destroy();
      agents.https.destroy();
      credentialResolver.close();
      await rateLimitStore.close();
    },
  };
}
