import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@firewatch/errors';
import type { CredentialResolver } from '../domain/credential-resolver.js';
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
export function authenticateMiddleware(resolver: CredentialResolver): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      next(new UnauthorizedError('A bearer credential is required: send Authorization: Bearer <token>.', { code: 'missing_credential' }));
      return;
    }
    resolver.resolve(token).then((credential) => {
      if (credential === null) {
        next(new UnauthorizedError('The bearer credential is unknown, revoked or expired.', {
          code: 'invalid_credential',
          headers: { 'WWW-Authenticate': 'Bearer realm="firewatch", error="invalid_token"' },
        }));
        return;
      }
      attachState(req, credential);
      next();
    }, next);
  };
}
