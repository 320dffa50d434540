import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { SystemTokens } from '@firewatch/auth';
import { BadRequestError, UnauthorizedError } from '@firewatch/errors';
import type { CredentialResolver } from '../domain/credential.types.js';

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * `/internal`: endpoints for other Firewatch processes, closed to anyone without a
 * system token. The gateway calls resolve on each credential-cache miss.
 */
export function internalRouter(deps: { systemTokens: SystemTokens; resolveCredential: CredentialResolver }): Router {
  const router = Router();

  // Check the caller before reading its body.
  router.use(async (req: Request, _res: Response, next: NextFunction) => {
    const caller = await deps.systemTokens.verify(bearer(req.headers.authorization));
    next(caller ? undefined : new UnauthorizedError('A system token is required.', { code: 'invalid_system_token' }));
  });
  router.use(express.json({ limit: '16kb', strict: true }));

  /**
   * `{"token": "..."}` → 200 `{principal, rate_limits}`, or 401 when the credential
   * is unknown, malformed, revoked or expired.
   */
  router.post('/credentials/resolve', async (req: Request, res: Response) => {
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') {
      throw new BadRequestError('The body must be a JSON object {"token": string}.', {
        source: { pointer: '/token' },
        code: 'invalid_body',
      });
    }
    const resolution = await deps.resolveCredential(token);
    if (!resolution)
      throw new UnauthorizedError('The credential is unknown, malformed, revoked or expired.', { code: 'invalid_credential' });
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(resolution);
  });

  return router;
}
