import type { RequestHandler } from 'express';
import { RateLimitedError, UnauthorizedError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { AuthFailureGuard } from '../domain/auth-failure-guard.js';
import type { CredentialResolver, ResolvedCredential } from '../domain/credential-resolver.js';
import { attachState } from './request-state.js';

// RFC 6750 b64token, bounded: anything else cannot be a credential, so it never reaches the auth service.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,4096}=*) *$/i;

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return BEARER.exec(header)?.[1];
}

/**
 * Every /v1 request needs a bearer credential the auth service knows. On success the
 * request carries its {@link GatewayState}; otherwise it is answered 401 (or 503 when the
 * auth service cannot be asked).
 */
export function authenticateMiddleware(resolver: CredentialResolver, guard: AuthFailureGuard, logger: Logger): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      next(new UnauthorizedError('A bearer credential is required: send Authorization: Bearer <token>.', { code: 'missing_credential' }));
      return;
    }
    const address = req.socket.remoteAddress ?? 'unknown';
    const settle = (credential: ResolvedCredential | null, fresh: boolean) => {
      if (credential !== null) {
        attachState(req, credential);
        next();
        return;
      }
      if (fresh) {
        guard.recordFailure(address).catch((err: unknown) => logger.warn('could not count a failed credential', { error: err }));
      }
      next(new UnauthorizedError('The bearer credential is unknown, revoked or expired.', {
        code: 'invalid_credential',
        headers: { 'WWW-Authenticate': 'Bearer realm="firewatch", error="invalid_token"' },
      }));
    };
    const cached = resolver.peek(token);
    if (cached !== undefined) {
      settle(cached, false);
      return;
    }
    const retryAfter = guard.retryAfter(address);
    if (retryAfter > 0) {
      next(new RateLimitedError({ 'Retry-After': String(retryAfter) }));
      return;
    }
    resolver.resolve(token).then((credential) => settle(credential, true), next);
  };
}
