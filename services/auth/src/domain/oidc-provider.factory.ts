import Provider, { interactionPolicy, type Adapter, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { clientSecretMatches, newClientSecret } from './client-secret.js';
import { APPLICATION_ID_PROPERTY, REGISTRABLE_AUTH_METHODS, validateRegistration } from './client-registration.rules.js';
import type { OAuthAccounts } from './oauth-accounts.js';
import type { OidcKeys } from './oidc-keys.js';
import { SUPPORTED_SCOPES } from './oauth-scopes.js';
import { renderErrorPage } from './oidc-error-page.js';
import { makeRefreshRotationIdempotent } from './oidc-refresh-rotation.js';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  registration: '/oauth/register',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  jwks: '/oauth/discovery/keys',
  end_session: '/oauth/logout',
} as const;

const DAY = 24 * 3600;

export interface OidcProviderDeps {
  issuer: string;
  keys: OidcKeys;
  adapter: (model: string) => Adapter;
  accounts: OAuthAccounts;
  /** The team a client is bound to (docs/api-contract.md §3.4), if any. */
  teamOfClient(clientId: string): Promise<number | undefined>;
  /** Whether any proxy is trusted (TRUST_PROXY); which one is decided by the HTTP layer. */
  trustProxy?: boolean;
}

/**
 * A session of another team's user must not authorize a client bound to a team: ask
 * for a login again (the login page then names the problem).
 */
function loginPolicy(deps: OidcProviderDeps) {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check('team_mismatch', 'the signed-in user belongs to another team than the application', async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const [team, user] = await Promise.all([deps.teamOfClient(clientId), deps.accounts.find(accountId)]);
      return team !== undefined && user?.team_id !== team;
    }),
  );
  return policy;
}

/**
 * The provider's configuration: what docs/api-contract.md §3.3-3.6 asks, nothing more
 * (see docs/oauth.md).
 */
function configuration(deps: OidcProviderDeps): Configuration {
  return {
    adapter: deps.adapter,
    clients: [],
    jwks: deps.keys.jwks as Configuration['jwks'],
    cookies: { keys: deps.keys.cookieKeys },
    routes: OAUTH_ROUTES,
    scopes: SUPPORTED_SCOPES,
    claims: {
      openid: ['sub'],
      profile: ['name', 'team_id', 'role', 'on_call_role', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    findAccount: async (_ctx, sub) => {
      const user = await deps.accounts.find(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ ...deps.accounts.claims(user), sub }) };
    },
    responseTypes: ['code'],
    clientAuthMethods: [...REGISTRABLE_AUTH_METHODS],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata: { properties: [APPLICATION_ID_PROPERTY], validator: validateRegistration as never },
    features: {
      devInteractions: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        secretFactory: () => newClientSecret(),
      },
      clientCredentials: { enabled: true },
      // A client revokes its own tokens only (public clients identify with client_id).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      // Only the client a token was issued to may introspect it (the default lets any
      // confidential client introspect any token).
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: { enabled: false },
    },
    // Every authorization-code client, confidential ones included (RFC 9700 §2.1.1,
    // OAuth 2.1): anyone can register a confidential client, and PKCE is what binds a
    // code to the client that started the request (docs/oauth.md, "Endpoints").
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 3600,
      ClientCredentials: 3600,
      IdToken: 3600,
      RefreshToken: 30 * DAY,
      Grant: 30 * DAY,
      Session: 14 * DAY,
      Interaction: 3600,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // CLI and server tokens outlive the browser session that created them.
    expiresWithSession: async () => false,
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      userinfoSigningAlgValues: ['RS256'],
      introspectionSigningAlgValues: ['RS256'],
      authorizationSigningAlgValues: ['RS256'],
      requestObjectSigningAlgValues: ['RS256'],
      clientAuthSigningAlgValues: ['RS256'],
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}`,
      policy: loginPolicy(deps),
    },
    renderError: async (ctx, out) => renderErrorPage(ctx, out),
  };
}

/** node-oidc-provider 9 configured for Firewatch, issuer `{auth_url}` mounted at the root. */
export function createOidcProvider(deps: OidcProviderDeps): Provider {
  const provider = new Provider(deps.issuer, configuration(deps));
  provider.proxy = deps.trustProxy ?? false;
  // Client payloads hold a hash of the secret (see client-secret.ts), so the comparison
  // hashes the presented one; nothing else in the provider reads the secret, since no
  // HMAC (HS*) algorithm is enabled.
  provider.Client.prototype.compareClientSecret = async function compare(this: { clientSecret?: string }, actual: string) {
    return clientSecretMatches(this.clientSecret, actual);
  };
  makeRefreshRotationIdempotent(provider, deps.keys.cookieKeys[0]);
  return provider;
}
