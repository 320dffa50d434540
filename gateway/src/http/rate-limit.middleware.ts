import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { RateLimitedError, ServiceUnavailableError } from '@firewatch/errors';
import { bucketOf, rateLimitLogs, type Bucket, type RateLimitPolicy } from '../domain/rate-limit.policy.js';
import type { ResolvedCredential } from '../domain/credential-resolver.js';
import { RateLimitStoreUnavailableError } from '../data/rate-limit-store.error.js';
import type { RateLimitHit, RateLimitLog, RateLimitStore } from '../domain/rate-limit.store.js';
import { stateOf } from './request-state.js';

export interface RateLimitMiddlewareOptions {
  store: RateLimitStore;
  policy: RateLimitPolicy;
  windowSeconds: number;
}

/**
 * The log the headers describe: on a refusal, the refusing log that frees last (so
 * Retry-After is honest); otherwise the one with the least room left, the narrowest on
 * a tie. A client thus always sees the budget that binds it.
 */
function binding(logs: readonly RateLimitLog[], hits: readonly RateLimitHit[], windowMs: number): number {
  let best = 0;
  const refused = hits.some((h) => !h.allowed);
  for (let i = 1; i < hits.length; i++) {
    if (refused) {
      if (hits[i].allowed) continue;
      const reset = (h: RateLimitHit) => (h.oldestMs ?? h.nowMs) + windowMs;
      if (hits[best].allowed || reset(hits[i]) > reset(hits[best])) best = i;
    } else if (logs[i].limit - hits[i].used < logs[best].limit - hits[best].used) {
      best = i;
    }
  }
  return best;
}

/**
 * Sets the X-RateLimit-* headers of one log's hit; the 429 to answer when it was refused,
 * else undefined.
 */
export function describeHit(
  res: ServerResponse,
  limit: number,
  hit: RateLimitHit,
  windowMs: number,
  windowSuffix: string,
): RateLimitedError | undefined {
  // A slot frees when the oldest counted request leaves the window.
  const resetMs = (hit.oldestMs ?? hit.nowMs) + windowMs;
  res.setHeader('X-RateLimit-Limit', `${limit}, ${limit}${windowSuffix}`);
  res.setHeader('X-RateLimit-Remaining', String(limit > hit.used ? limit - hit.used : 0));
  res.setHeader('X-RateLimit-Used', String(hit.used));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetMs / 1000)));
  if (hit.allowed) return undefined;
  const retryAfter = Math.max(1, Math.ceil((resetMs - hit.nowMs) / 1000));
  return new RateLimitedError({ 'Retry-After': String(retryAfter) });
}

/**
 * Fail closed: without the shared counts the gateway cannot keep the contracted limits,
 * and letting traffic through unmetered would let one client swamp the services during a
 * Redis outage. A 503 tells clients to come back shortly.
 */
export function storeFailure(err: unknown): unknown {
  if (!(err instanceof RateLimitStoreUnavailableError)) return err;
  return new ServiceUnavailableError('Rate limiting is unavailable, so requests are refused. Try again shortly.', {
    code: 'rate_limiter_unavailable',
    cause: err.cause,
  });
}

/**
 * Counts the request against its credential's, its user's and its team's read or write
 * budgets in one atomic step, and describes the binding budget in X-RateLimit-* headers.
 * They are set on the response before anything else happens, so the 429, the gateway's
 * own errors and the proxied answer all carry them.
 */
export function rateLimitMiddleware({ store, policy, windowSeconds }: RateLimitMiddlewareOptions): RequestHandler {
  const windowMs = windowSeconds * 1000;
  const windowSuffix = `;window=${windowSeconds}`;
  // A credential's logs depend only on it and the bucket: built once per resolution.
  const memo = new WeakMap<ResolvedCredential, Partial<Record<Bucket, RateLimitLog[]>>>();
  const logsOf = (credential: ResolvedCredential, bucket: Bucket) => {
    let entry = memo.get(credential);
    if (!entry) memo.set(credential, (entry = {}));
    return (entry[bucket] ??= rateLimitLogs(bucket, credential.identities, credential.limits, policy));
  };

  return (req, res, next) => {
    const credential = stateOf(req)!.credential!;
    const logs = logsOf(credential, bucketOf(req.method));
    store.hitAll(logs, windowMs).then(
      (hits) => {
        const i = binding(logs, hits, windowMs);
        const refusal = describeHit(res, logs[i].limit, hits[i], windowMs, windowSuffix);
        next(refusal);
      },
      (err: unknown) => next(storeFailure(err)),
    );
  };
}
