import type { NextFunction, Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@firewatch/errors';
import { PRINCIPAL_HEADER, type PrincipalVerifier } from './principal-token.js';
import type { Principal } from './principal.js';

const PRINCIPAL = Symbol('principal');

/**
 * Refuses every request that does not carry a principal the gateway signed for this
 * service and this very method and path, so a service reached directly (bypassing the
 * gateway), or a token captured from another request, gets 401.
 */
export function principalMiddleware(verifier: PrincipalVerifier): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers[PRINCIPAL_HEADER];
    const url = req.originalUrl;
    const query = url.indexOf('?');
    const token = typeof header === 'string' ? header : undefined;
    const request = { method: req.method, path: query === -1 ? url : url.slice(0, query) };
    // A token verified before (the gateway reuses its tokens): on in the same tick, no closure.
    const known = verifier.verifyKnown?.(token, request);
    if (known !== undefined) return admit(req, known, next);
    verifier.verify(token, request).then((principal) => admit(req, principal, next), next);
  };
}

function admit(req: Request, principal: Principal | null, next: NextFunction): void {
  if (!principal) return next(new UnauthorizedError('Requests must come through the gateway.', { code: 'no_principal' }));
  (req as unknown as Record<symbol, Principal>)[PRINCIPAL] = principal;
  next();
}

/** The principal that {@link principalMiddleware} attached. */
export function getPrincipal(req: Request): Principal {
  const principal = (req as unknown as Record<symbol, Principal | undefined>)[PRINCIPAL];
  if (!principal) throw new UnauthorizedError();
  return principal;
}
