import type { Express, Request, RequestHandler, Response } from 'express';
import { counterOf, histogramOf, LATENCY_BUCKETS, type Metrics } from './process-metrics.js';
import { counterSlot, histogramSlot } from './series-slot.js';

/** The route label of a request that matched no route (404s, a refused media type before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The status label of a request whose client went away before the whole answer was sent (nginx's). */
export const CLIENT_CLOSED_STATUS = '499';

const ROUTE = Symbol('firewatch.metrics.route');
const TEMPLATE = Symbol('firewatch.metrics.routeTemplate');
const STARTED = Symbol('firewatch.metrics.started');

type Routed = Request & { [ROUTE]?: unknown; [TEMPLATE]?: string };
type Timed = Response & { [STARTED]?: number; req: Request };

/** Options of {@link httpMetrics}. */
export interface HttpMetricsOptions {
  /**
   * The route label of a finished request. Default: the express route it matched, as its
   * template with every mount path (`/v1/incidents/:id`), else `unmatched`. Whatever it
   * returns must come from a bounded set: never the raw path, whose ids would make a series each.
   */
  routeOf?(req: Request): string;
}

function templateOf(route: unknown): string {
  const path = (route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : String(path);
}

/**
 * Keeps, on each request of `app`, the template of the route express matched together with
 * the mount paths above it at that moment: express restores `req.baseUrl` when an error
 * leaves a router, so at the end of the request it no longer tells where the route was.
 * An accessor on the app's request prototype costs nothing per request but the assignment
 * express makes anyway.
 */
export function captureRouteTemplates(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    get(this: Routed) {
      return this[ROUTE];
    },
    set(this: Routed, route: unknown) {
      this[ROUTE] = route;
      const template = (this.baseUrl ?? '') + templateOf(route);
      this[TEMPLATE] = template.length > 1 && template.endsWith('/') ? template.slice(0, -1) : template;
    },
  });
}

/** The template {@link captureRouteTemplates} kept for `req`, or `unmatched`. */
export function routeTemplateOf(req: Request): string {
  return (req as Routed)[TEMPLATE] ?? UNMATCHED_ROUTE;
}

/**
 * Counts each request by method, route and status (`firewatch_http_requests_total`) and
 * times it by method, route and status class (`firewatch_http_request_duration_seconds`)
 * when its connection is done with it. Mount it first; with the default `routeOf`, call
 * {@link captureRouteTemplates} on the app.
 */
export function httpMetrics(metrics: Metrics, options: HttpMetricsOptions = {}): RequestHandler {
  const routeOf = options.routeOf ?? routeTemplateOf;
  const requests = counterOf(metrics, 'firewatch_http_requests_total', 'HTTP requests answered, by method, route template and status.', [
    'method',
    'route',
    'status',
  ]);
  const duration = histogramOf(
    metrics,
    'firewatch_http_request_duration_seconds',
    'Time from a request to the end of its answer, by method, route template and status class.',
    ['method', 'route', 'status_class'],
    LATENCY_BUCKETS,
  );

  // The series of each method, route and status seen, by method, route and status code
  // (-1: the client left): one lookup each, no labels built per request. Bounded as the
  // labels are: Node's parser knows a few dozen methods, routes are templates.
  const series = new Map<string, Map<string, Map<number, { count(): void; time(seconds: number): void }>>>();
  // Statuses of one class share their duration series, so they share its slot.
  const timers = new Map<string, (seconds: number) => void>();
  const timerOf = (method: string, route: string, statusClass: string) => {
    const key = `${method} ${route} ${statusClass}`;
    let time = timers.get(key);
    if (!time) timers.set(key, (time = histogramSlot(duration, { method, route, status_class: statusClass })));
    return time;
  };
  function seriesOf(method: string, route: string, code: number) {
    let byRoute = series.get(method);
    if (!byRoute) series.set(method, (byRoute = new Map()));
    let byCode = byRoute.get(route);
    if (!byCode) byRoute.set(route, (byCode = new Map()));
    let found = byCode.get(code);
    if (!found) {
      const status = code === -1 ? CLIENT_CLOSED_STATUS : String(code);
      found = {
        count: counterSlot(requests, { method, route, status }),
        time: timerOf(method, route, `${status[0]}xx`),
      };
      byCode.set(code, found);
    }
    return found;
  }

  // One function for every request (`this` is the response): no closure per request.
  function onClose(this: Timed) {
    const seconds = (performance.now() - this[STARTED]!) / 1000;
    const req = this.req;
    const one = seriesOf(req.method, routeOf(req), this.writableFinished ? this.statusCode : -1);
    one.count();
    one.time(seconds);
  }

  return (_req, res, next) => {
    (res as Timed)[STARTED] = performance.now();
    res.once('close', onClose);
    next();
  };
}
