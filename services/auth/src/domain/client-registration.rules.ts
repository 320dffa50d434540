import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { isMetaScope, registeredScope, splitScope, unknownScopes } from './oauth-scopes.js';

/** Client metadata that only the server sets: marks admin-created client-credentials apps. */
export const APPLICATION_ID_PROPERTY = 'firewatch_application_id';

export const REGISTRABLE_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
const REGISTRABLE_GRANTS = new Set(['authorization_code', 'refresh_token']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
// Metadata that makes the server fetch a URL of the registrant's choosing (now, as for
// sector_identifier_uri, or later): an unauthenticated registration must not trigger
// outbound requests (docs/oauth.md, "Dynamic client registration"). None of it is needed
// by the clients docs/api-contract.md §3.4 describes.
const FETCHED_METADATA = ['sector_identifier_uri', 'jwks_uri', 'request_uris', 'initiate_login_uri'];

function invalid(detail: string): Error {
  return new errors.InvalidClientMetadata(detail);
}

function invalidRedirect(detail: string): Error {
  return new errors.CustomOIDCProviderError('invalid_redirect_uri', detail);
}

/**
 * HTTPS anywhere; plain HTTP only on loopback (any port); nothing else
 * (docs/api-contract.md §3.4).
 */
function checkRedirectUris(uris: unknown): { loopbackHttp: boolean; loopbackHttps: boolean } {
  if (!Array.isArray(uris) || uris.length === 0) throw invalidRedirect('redirect_uris must contain at least one URI');
  let loopbackHttp = false;
  let loopbackHttps = false;
  for (const uri of uris) {
    const parsed = typeof uri === 'string' ? URL.parse(uri) : null;
    if (!parsed) throw invalidRedirect(`redirect_uris must only contain valid URIs`);
    if (parsed.hash || uri.includes('#')) throw invalidRedirect(`${uri}: redirect URIs must not contain a fragment`);
    if (parsed.protocol === 'http:') {
      if (!LOOPBACK_HOSTS.has(parsed.hostname)) {
        throw invalidRedirect(`${uri}: plain http is allowed only for 127.0.0.1, [::1] and localhost; use https`);
      }
      loopbackHttp = true;
    } else if (parsed.protocol === 'https:') {
      loopbackHttps ||= LOOPBACK_HOSTS.has(parsed.hostname);
    } else {
      throw invalidRedirect(`${uri}: redirect URIs must use https (or http on a loopback address)`);
    }
  }
  return { loopbackHttp, loopbackHttps };
}

/**
 * The rules of docs/api-contract.md §3.4 for `POST /oauth/register`, as node-oidc-provider's
 * `extraClientMetadata.validator` (registration policies only run with initial access
 * tokens, which open registration does not use). It runs before the built-in checks and
 * may adjust the metadata: default scope, `application_type: native` for loopback
 * clients (so any loopback port is accepted, RFC 8252 §7.3).
 */
export function validateRegistration(
  ctx: KoaContextWithOIDC | undefined,
  key: string,
  value: unknown,
  metadata: Record<string, unknown>,
): void {
  // Stored clients are re-validated on every load, without a registration context.
  if (ctx?.oidc?.route !== 'registration' || key !== APPLICATION_ID_PROPERTY) return;
  if (value !== undefined) throw invalid(`${APPLICATION_ID_PROPERTY} is set by the server only`);
  // The raw body too: the provider drops metadata of features that are off before we run.
  const sent = { ...(ctx.oidc.body as Record<string, unknown> | undefined), ...metadata };
  const fetched = FETCHED_METADATA.filter((name) => sent[name] !== undefined);
  if (fetched.length) throw invalid(`${fetched.join(', ')}: not accepted (the server does not fetch client-supplied URLs)`);

  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!(REGISTRABLE_AUTH_METHODS as readonly unknown[]).includes(method)) {
    throw invalid(`token_endpoint_auth_method must be one of ${REGISTRABLE_AUTH_METHODS.join(', ')}`);
  }
  const grants = Array.isArray(metadata.grant_types) ? metadata.grant_types : ['authorization_code'];
  const refused = grants.find((g) => !REGISTRABLE_GRANTS.has(String(g)));
  if (refused !== undefined) {
    throw invalid(
      `grant_types may only contain authorization_code and refresh_token; ${String(refused)} is not registrable (client-credentials applications are created by a team admin)`,
    );
  }

  if (metadata.scope !== undefined && typeof metadata.scope !== 'string') throw invalid('scope must be a string');
  const asked = splitScope(metadata.scope as string | undefined);
  const meta = asked.filter(isMetaScope);
  if (meta.length) throw new errors.InvalidClientMetadata(`meta scopes are not granted at registration: ${meta.join(', ')}`);
  const unknown = unknownScopes(asked);
  if (unknown.length) throw invalid(`unknown scope values: ${unknown.join(', ')}`);
  metadata.scope = registeredScope(metadata.scope === undefined || asked.length === 0 ? undefined : asked.join(' '));

  // Native clients may vary the loopback port; they cannot use https on a loopback host.
  const { loopbackHttp, loopbackHttps } = checkRedirectUris(metadata.redirect_uris);
  if (loopbackHttp && !loopbackHttps) metadata.application_type = 'native';
  else if (loopbackHttps) metadata.application_type = 'web';
}
