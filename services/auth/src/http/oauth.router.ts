import { Router } from 'express';
import type { Provider } from 'oidc-provider';
import type { AuthServices } from '../create-services.js';
import type { LoginThrottle } from '../domain/oauth-login-throttle.js';
import { OAUTH_ROUTES } from '../domain/oidc-provider.factory.js';
import { interactionRouter } from './interaction.routes.js';
import { registrationRateLimit, type RegistrationCounter } from './registration-rate-limit.js';
import { userinfoHandler } from './userinfo.routes.js';

const PROVIDER_PATHS = /^\/(oauth|\.well-known)(\/|$)/;

export interface OAuthHttpDeps {
  provider: Provider;
  services: AuthServices;
  issuer: string;
  cookieKeys: string[];
  registrationCounter: RegistrationCounter;
  registrationsPerHour: number;
  loginThrottle: LoginThrottle;
  clientsPerTeam?: number;
}

/**
 * The OAuth 2.0 / OpenID Connect server at the root: our own routes first (login and
 * consent pages, the registration limit, userinfo for any token), then the provider,
 * which answers everything else under /oauth and /.well-known. No body parser runs in
 * front of the provider.
 */
export function oauthRouter(deps: OAuthHttpDeps): Router {
  const { oauth } = deps.services;
  const router = Router();
  router.use(
    '/interaction',
    interactionRouter({
      provider: deps.provider,
      accounts: oauth.accounts,
      login: oauth.login,
      throttle: deps.loginThrottle,
      csrfKeys: deps.cookieKeys,
      issuer: deps.issuer,
      clientsPerTeam: deps.clientsPerTeam,
    }),
  );
  router.post(OAUTH_ROUTES.registration, registrationRateLimit(deps.registrationCounter, deps.registrationsPerHour));
  const userinfo = userinfoHandler({ tokens: oauth.tokens, accounts: oauth.accounts });
  router.get(OAUTH_ROUTES.userinfo, userinfo);
  router.post(OAUTH_ROUTES.userinfo, userinfo);
  // Only the provider's own paths reach it, so the rest of the service keeps its JSON:API 404.
  const provider = deps.provider.callback();
  router.use((req, res, next) => {
    if (!PROVIDER_PATHS.test(req.path)) return next();
    // The provider (Koa) trusts X-Forwarded-* wholesale once any proxy is trusted; drop
    // them unless the peer is a proxy Express's `trust proxy` believes.
    const trusted = req.app.get('trust proxy fn') as ((address: string | undefined, hop: number) => boolean) | undefined;
    if (!trusted?.(req.socket.remoteAddress, 0)) {
      for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
    }
    return provider(req, res);
  });
  return router;
}
