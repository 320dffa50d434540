import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@firewatch/errors';
import { PRINCIPAL_HEADER, type InternalTokens } from './internal-token.js';
import type { Principal } from './principal.js';

const PRINCIPAL = Symbol('principal');

/**
 * Refuses every request that does not carry a principal signed by the gateway, so a
 * service reached directly (bypassing the gateway) answers 401.
 */
export function principalMiddleware(tokens: InternalTokens): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers[PRINCIPAL_HEADER];
    tokens.verifyPrincipal(typeof header === 'string' ? header : undefined).then(
      (principal) => {
        if (!principal) return next(new UnauthorizedError('Requests must come through the gateway.', { code: 'no_principal' }));
        (req as unknown as Record<symbol, Principal>)[PRINCIPAL] = principal;
        next();
      },
      next,
    );
  };
}

/** The principal that {@link principalMiddleware} attached. */
export function getPrincipal(req: Request): Principal {
  const principal = (req as unknown as Record<symbol, Principal | undefined>)[PRINCIPAL];
  if (!principal) throw new UnauthorizedError();
  return principal;
}
