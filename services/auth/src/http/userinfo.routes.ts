import type { Request, RequestHandler, Response } from 'express';
import type { OAuthAccounts } from '../domain/oauth-accounts.js';
import type { OAuthTokens } from '../domain/oauth-token.resolver.js';

function bearer(header: string | undefined): string | undefined {
  return /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header ?? '')?.[1];
}

function refuse(res: Response, status: number, error: string, description: string): void {
  res
    .status(status)
    .set('WWW-Authenticate', `Bearer realm="firewatch", error="${error}", error_description="${description}"`)
    .set('Cache-Control', 'no-store')
    .json({ error, error_description: description });
}

/**
 * `GET|POST /oauth/userinfo`, in front of the provider's own: that one refuses
 * client-credentials tokens and tokens without `openid`, while the contract lets any
 * valid access token call it (docs/api-contract.md §3.6): an external service validates
 * our tokens this way.
 */
export function userinfoHandler(deps: { tokens: OAuthTokens; accounts: OAuthAccounts }): RequestHandler {
  return async (req: Request, res: Response) => {
    const header = req.headers.authorization;
    if (!header) return refuse(res, 401, 'invalid_token', 'no access token provided');
    const token = bearer(header);
    if (!token) return refuse(res, 400, 'invalid_request', 'the Authorization header must be "Bearer <access token>"');
    const claims = await deps.tokens.userinfo(token, deps.accounts.claims);
    if (!claims) return refuse(res, 401, 'invalid_token', 'invalid, expired or revoked access token');
    res.set('Cache-Control', 'no-store').json(claims);
  };
}
