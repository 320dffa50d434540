import type { RequestHandler } from 'express';
import { RateLimitedError, ServiceUnavailableError } from '@firewatch/errors';
import { bucketOf, limitFor, type RateLimitDefaults } from '../domain/rate-limit.policy.js';
import { type RateLimitStore, RateLimitStoreUnavailableError } from '../data/rate-limit.store.js';
import { stateOf } from './request-state.js';

export interface RateLimitMiddlewareOptions {
  store: RateLimitStore;
  defaults: RateLimitDefaults;
  windowSeconds: number;
}

/**
 * Counts the request against its credential's read or write budget and describes that
 * budget in X-RateLimit-* headers. They are set on the response before anything else
 * happens, so the 429, the gateway's own errors and the proxied answer all carry them.
 */
export function rateLimitMiddleware({ store, defaults, windowSeconds }: RateLimitMiddlewareOptions): RequestHandler {
  const windowMs = windowSeconds * 1000;
  const windowSuffix = `;window=${windowSeconds}`;
  return (req, res, next) => {
    const credential = stateOf(req)!.credential;
    const bucket = bucketOf(req.method);
    const limit = limitFor(bucket, credential.limits, defaults);
    store.hit(`${bucket}:${credential.identity}`, limit, windowMs).then(
      (hit) => {
        // A slot frees when the oldest counted request leaves the window.
        const resetMs = (hit.oldestMs ?? hit.nowMs) + windowMs;
        res.setHeader('X-RateLimit-Limit', `${limit}, ${limit}${windowSuffix}`);
        res.setHeader('X-RateLimit-Remaining', String(limit > hit.used ? limit - hit.used : 0));
        res.setHeader('X-RateLimit-Used', String(hit.used));
        res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
        if (hit.allowed) {
          next();
          return;
        }
        const retryAfter = Math.max(1, Math.ceil((resetMs - hit.nowMs) / 1000));
        next(new RateLimitedError({ 'Retry-After': String(retryAfter) }));
      },
      (err: unknown) => {
        // Fail closed: without the shared counts the gateway cannot keep the contracted
        // limits, and letting traffic through unmetered would let one client swamp the
        // services during a Redis outage. A 503 tells clients to come back shortly.
        if (err instanceof RateLimitStoreUnavailableError) {
          next(new ServiceUnavailableError('Rate limiting is unavailable, so requests are refused. Try again shortly.', {
            code: 'rate_limiter_unavailable',
            cause: err.cause,
          }));
          return;
        }
        next(err);
      },
    );
  };
}
