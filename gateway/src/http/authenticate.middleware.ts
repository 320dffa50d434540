import type { NextFunction, Request, RequestHandler } from 'express';
import { RateLimitedError, UnauthorizedError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import { clientAddress } from '@firewatch/client-address';
import type { AuthFailureGuard } from '../domain/auth-failure-guard.js';
import type { CredentialResolver, ResolvedCredential } from '../domain/credential-resolver.js';
import { attachState } from './request-state.js';
import { inRequestContext, requestIdOf } from './request-id.middleware.js';

// RFC 6750 b64token, bounded: anything else cannot be a credential, so it never reaches the auth service.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i;

/** The token of an `Authorization: Bearer` header of a valid shape, else undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}

/**
 * Every /v1 request needs a bearer credential the auth service knows. On success the
 * request carries its {@link GatewayState}; otherwise it is answered 401 (or 503 when the
 * auth service cannot be asked). A client address over its guessing budget gets 429 for
 * tokens that do not resolve; one that does resolve always passes. `asExpress` gives a
 * request express's prototype before its client's address is read (`req.ip`, which follows
 * TRUSTED_PROXIES): the gateway leaves a request without it until it is needed (app.ts).
 */
export function authenticateMiddleware(
  resolver: CredentialResolver,
  guard: AuthFailureGuard,
  logger: Logger,
  asExpress: (req: Request) => void,
): RequestHandler {
  const countFailure = (address: string, requestId: string | undefined) => {
    guard
      .recordFailure(address)
      .catch((err: unknown) => logger.warn('could not count a failed credential', { request_id: requestId, error: err }));
  };

  /** The auth service's answer for a token this replica has not cached. */
  function resolveUncached(req: Request, token: string, next: NextFunction): void {
    const pass = (credential: ResolvedCredential) => {
      attachState(req, credential);
      next();
    };
    // Only now is the client's address needed: behind trusted proxies (TRUSTED_PROXIES)
    // Express takes it from the right-most untrusted X-Forwarded-For hop.
    asExpress(req);
    const address = clientAddress(req);
    const retryAfter = guard.retryAfter(address);
    // The auth service's client logs on its own (a refused system token): inside the request's context.
    const resolve = () => inRequestContext(req, () => resolver.resolve(token));
    if (retryAfter === 0) {
      resolve().then((credential) => {
        if (credential) return pass(credential);
        countFailure(address, requestIdOf(req));
        next(invalidCredential());
      }, next);
      return;
    }
    guard.probe(address, resolve).then((credential) => {
      if (credential !== 'busy' && credential !== null) return pass(credential);
      if (credential === null) countFailure(address, requestIdOf(req));
      // Busy says nothing about the token: a valid one would pass a second later.
      next(new RateLimitedError({ 'Retry-After': credential === 'busy' ? '1' : String(retryAfter) }));
    }, next);
  }

  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      next(new UnauthorizedError('A bearer credential is required: send Authorization: Bearer <token>.', { code: 'missing_credential' }));
      return;
    }
    const cached = resolver.peek(token);
    if (cached) {
      attachState(req, cached);
      next();
    } else if (cached === null) {
      next(invalidCredential());
    } else {
      resolveUncached(req, token, next);
    }
  };
}

function invalidCredential(): UnauthorizedError {
  return new UnauthorizedError('The bearer credential is unknown, revoked or expired.', {
    code: 'invalid_credential',
    headers: { 'WWW-Authenticate': 'Bearer realm="firewatch", error="invalid_token"' },
  });
}
