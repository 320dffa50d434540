import type { RequestHandler } from 'express';
import { NotFoundError, ServiceUnavailableError } from '@firewatch/errors';
import type { RouteMatcher, UpstreamName } from '../domain/routes.js';
import { stateOf } from './request-state.js';

export interface ForwardMiddlewareOptions {
  match: RouteMatcher;
  /** The deployed services; a routed name missing here is "not deployed". */
  proxies: ReadonlyMap<UpstreamName, RequestHandler>;
}

/**
 * Sends an authenticated, rate-limited request to the service that owns its path (whose
 * forwarder puts the signed principal in place of the client's credential). No body
 * parser runs before this: the body streams through untouched.
 */
export function forwardMiddleware({ match, proxies }: ForwardMiddlewareOptions): RequestHandler {
  return (req, res, next) => {
    const upstream = match(req.path);
    if (upstream === undefined) {
      next(new NotFoundError(`No route for ${req.method} ${req.path}.`, { code: 'route_not_found' }));
      return;
    }
    const proxy = proxies.get(upstream);
    if (proxy === undefined) {
      next(new ServiceUnavailableError(`The ${upstream} service is not deployed.`, { code: 'not_deployed' }));
      return;
    }
    stateOf(req)!.next = next;
    void proxy(req, res, next);
  };
}
