import type { RequestHandler } from 'express';
import { clientAddress } from '@firewatch/client-address';
import { NotFoundError, RateLimitedError, ServiceUnavailableError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { AuthFailureGuard } from '../domain/auth-failure-guard.js';
import type { RateLimitStore } from '../domain/rate-limit.store.js';
import { describeHit, storeFailure } from './rate-limit.middleware.js';
import { attachState } from './request-state.js';
import { requestIdOf } from './request-id.middleware.js';

/** An action link's token: 128 random bits in base64url (on-call's domain/notifications/action-links.ts). */
const ACTION = /^\/alert-actions\/([A-Za-z0-9_-]{22})$/;
/** The path on-call receives: the token travels in its header, never in a path that logs or metrics could keep. */
export const ALERT_ACTIONS_UPSTREAM_PATH = '/alert-actions';

export interface AlertActionsMiddlewareOptions {
  store: RateLimitStore;
  guard: AuthFailureGuard;
  /** Requests per client address and window. */
  limit: number;
  windowSeconds: number;
  logger: Logger;
  /** on-call's forwarder; undefined when on-call is not deployed. */
  forward: RequestHandler | undefined;
}

/**
 * `GET|POST /alert-actions/{token}` (docs/paging.md, "Notifications"): the acknowledge and
 * resolve links of a page's email, SMS or call, opened by a person (or posted by Twilio)
 * without an API credential: the link's random token, which only on-call keeps (as a
 * digest) and judges, is the credential. Counted per client address; a link on-call does
 * not know (404) counts against the address's guessing budget as an unknown API token
 * does, and a blocked address is refused until its budget refills. Forwarded with no
 * principal, the token moved from the path to its own header.
 */
export function alertActionsMiddleware({
  store,
  guard,
  limit,
  windowSeconds,
  logger,
  forward,
}: AlertActionsMiddlewareOptions): RequestHandler {
  const windowMs = windowSeconds * 1000;
  const windowSuffix = `;window=${windowSeconds}`;
  const countFailure = (address: string, requestId: string | undefined) => {
    guard
      .recordFailure(address)
      .catch((err: unknown) => logger.warn('could not count an unknown action link', { request_id: requestId, error: err }));
  };

  return (req, res, next) => {
    const match = ACTION.exec(req.path);
    // Before any answer: the access log and metrics read the path, which may hold a working
    // link even when refused (a scanner's HEAD, a link with something appended).
    req.url = ALERT_ACTIONS_UPSTREAM_PATH;
    req.originalUrl = ALERT_ACTIONS_UPSTREAM_PATH;
    if (!match || (req.method !== 'GET' && req.method !== 'POST')) {
      next(new NotFoundError(`No alert action route for ${req.method} this path.`, { code: 'route_not_found' }));
      return;
    }
    const token = match[1];
    if (!forward) {
      next(new ServiceUnavailableError('The on-call service is not deployed.', { code: 'not_deployed' }));
      return;
    }
    const address = clientAddress(req);
    const wait = guard.retryAfter(address);
    if (wait > 0) {
      next(new RateLimitedError({ 'Retry-After': String(wait) }));
      return;
    }
    store.hitAll([{ key: `alert-actions:${address}`, limit }], windowMs).then(
      ([hit]) => {
        const refusal = describeHit(res, limit, hit, windowMs, windowSuffix);
        if (refusal) return next(refusal);
        attachState(req, null, undefined, {
          token,
          answered(status) {
            if (status === 404) countFailure(address, requestIdOf(req));
          },
        });
        void forward(req, res, next);
      },
      (err: unknown) => next(storeFailure(err)),
    );
  };
}
