import { createHash } from 'node:crypto';
import { finished } from 'node:stream';
import type { RequestHandler } from 'express';
import { clientAddress } from '@firewatch/client-address';
import { NotFoundError, RateLimitedError, ServiceUnavailableError, UnauthorizedError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { AuthFailureGuard } from '../domain/auth-failure-guard.js';
import { INGEST_LIMIT_HEADER, type IngestLimits } from '../domain/ingest-limits.js';
import type { RateLimitStore } from '../domain/rate-limit.store.js';
import { bearerToken } from './authenticate.middleware.js';
import { describeHit, storeFailure } from './rate-limit.middleware.js';
import { attachState } from './request-state.js';
import { requestIdOf } from './request-id.middleware.js';

const UUID = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
/** An alert source's payloads (docs/on-call.md, "Ingestion"): POST, the secret as bearer. */
const SOURCE = new RegExp(`^/ingest/alert_sources/${UUID}$`, 'i');
/**
 * A heartbeat's pings (docs/on-call.md, "Heartbeats"): GET or POST (a crontab's `curl URL`),
 * the secret as bearer or as the path's last segment.
 */
const HEARTBEAT = new RegExp(`^/ingest/heartbeats/${UUID}(?:/([A-Za-z0-9_-]{1,128}))?$`, 'i');

/** What an ingestion path names: its record, its secret when the path carries it, and the methods it takes. */
function ingestionTarget(path: string): { id: string; pathSecret?: string; methods: readonly string[] } | undefined {
  const source = SOURCE.exec(path);
  if (source) return { id: source[1].toLowerCase(), methods: ['POST'] };
  const heartbeat = HEARTBEAT.exec(path);
  if (heartbeat) return { id: heartbeat[1].toLowerCase(), pathSecret: heartbeat[2], methods: ['GET', 'POST'] };
  return undefined;
}

/** What a refused ingestion path may show: up to its record's id, never what follows (it may be a heartbeat's secret). */
const RECORD = new RegExp(`^/ingest/(?:alert_sources|heartbeats)/${UUID}`, 'i');

const MAX_VOUCHED = 10_000;

export interface IngestMiddlewareOptions {
  store: RateLimitStore;
  guard: AuthFailureGuard;
  /** Payloads per source (and secret) and window, each source's own as on-call tells it, else the default. */
  limits: IngestLimits;
  windowSeconds: number;
  logger: Logger;
  /** on-call's forwarder; undefined when on-call is not deployed. */
  forward: RequestHandler | undefined;
}

/**
 * `POST /ingest/alert_sources/{id}` (docs/security.md, "Alert ingestion"): monitoring
 * tools hold no API key, so this path is outside `/v1` and its authentication. The
 * source's secret (`Authorization: Bearer`) is required here and judged by on-call, which
 * alone holds its hash; the request is counted per source and secret, so payloads sent
 * with a wrong secret never spend the source's budget, and a 401 from on-call counts
 * against the client address's guessing budget as an unknown API token does (a blocked
 * address's requests are forwarded a few at a time, those with a secret on-call accepted
 * lately without waiting). It is forwarded with an ingestion principal naming the source
 * and no one.
 */
export function ingestMiddleware({ store, guard, limits, windowSeconds, logger, forward }: IngestMiddlewareOptions): RequestHandler {
  const windowMs = windowSeconds * 1000;
  const windowSuffix = `;window=${windowSeconds}`;
  // Source and secret-digest pairs on-call accepted lately, oldest first (bounded).
  const vouched = new Set<string>();
  const vouch = (pair: string) => {
    vouched.delete(pair);
    vouched.add(pair);
    if (vouched.size > MAX_VOUCHED) vouched.delete(vouched.values().next().value as string);
  };
  const countFailure = (address: string, requestId: string | undefined) => {
    guard
      .recordFailure(address)
      .catch((err: unknown) => logger.warn('could not count a refused source secret', { request_id: requestId, error: err }));
  };

  return (req, res, next) => {
    const target = ingestionTarget(req.path);
    if (!target || !target.methods.includes(req.method)) {
      // Before the answer: the access log and metrics read the path, which may hold a working
      // secret even when refused (a HEAD or PUT on a ping URL, the URL with something appended).
      const shown = RECORD.exec(req.path)?.[0] ?? '/ingest';
      req.url = shown;
      req.originalUrl = shown;
      next(new NotFoundError(`No ingestion route for ${req.method} this path.`, { code: 'route_not_found' }));
      return;
    }
    const secret = target.pathSecret ?? bearerToken(req.headers.authorization);
    if (target.pathSecret !== undefined) {
      // on-call, the signed principal and the access log see the path without the secret (it travels in its header).
      const query = req.url.indexOf('?');
      const bare = `${req.path.slice(0, req.path.lastIndexOf('/'))}${query === -1 ? '' : req.url.slice(query)}`;
      req.url = bare;
      req.originalUrl = bare;
    }
    if (secret === undefined) {
      next(
        new UnauthorizedError('The secret is required: send Authorization: Bearer <secret>.', {
          code: 'missing_credential',
          headers: { 'WWW-Authenticate': 'Bearer realm="firewatch-ingest"' },
        }),
      );
      return;
    }
    if (!forward) {
      next(new ServiceUnavailableError('The on-call service is not deployed.', { code: 'not_deployed' }));
      return;
    }
    const sourceId = target.id;
    const limit = limits.limitOf(sourceId);
    // A digest, not the secret: Redis and memory never hold it.
    const digest = createHash('sha256').update(secret).digest('base64url').slice(0, 22);
    const pair = `${sourceId}:${digest}`;
    /** Counts the request and forwards it; `done` once it is answered (or the client went away). */
    const admit = (done?: () => void) => {
      // Even when the client left while this waited for a slot: the slot must free.
      if (done) finished(res, () => done());
      store.hitAll([{ key: `ingest:${sourceId}:${digest}`, limit }], windowMs).then(
        ([hit]) => {
          const refusal = describeHit(res, limit, hit, windowMs, windowSuffix);
          if (refusal) return next(refusal);
          attachState(req, null, {
            sourceId,
            secret,
            answered(status, headers) {
              // The address only now: behind trusted proxies it takes parsing X-Forwarded-For.
              if (status === 401) return countFailure(clientAddress(req), requestIdOf(req));
              if (status >= 200 && status < 300) vouch(pair);
              // Any other answer came after on-call accepted the secret: it says the source's limit.
              limits.learn(sourceId, headers[INGEST_LIMIT_HEADER]);
            },
          });
          void forward(req, res, next);
        },
        (err: unknown) => next(storeFailure(err)),
      );
    };
    const address = guard.blocksAny() ? clientAddress(req) : undefined;
    if (address === undefined || guard.retryAfter(address) === 0 || vouched.has(pair)) return admit();
    // A guesser's address is throttled: its requests reach on-call only a few at a time, as
    // /v1's unknown tokens reach auth. A secret on-call accepted lately skips even that, and
    // one this replica has not seen accepted (after a restart, on another replica) still
    // passes, so alerts from a monitoring tool behind the same proxy or NAT keep flowing.
    guard
      .probe(address, () => new Promise<void>((resolve) => admit(resolve)))
      .then((probed) => {
        if (probed === 'busy') next(new RateLimitedError({ 'Retry-After': '1' }));
      }, next);
  };
}
