import { API_KEY_TOKEN_PREFIX } from './api-key-token.js';
import type { CredentialResolver, OAuthTokenResolver, TokenResolver } from './credential.types.js';

export interface CredentialResolverDeps {
  resolveApiKey: TokenResolver;
  resolveOAuthToken: OAuthTokenResolver;
}

/**
 * API keys first, then OAuth tokens, as the specification orders them. A token in the
 * API key format is never handed to the OAuth side: it is a key or nothing.
 */
export function createCredentialResolver({ resolveApiKey, resolveOAuthToken }: CredentialResolverDeps): CredentialResolver {
  return async (token) => {
    if (token.length === 0 || token.length > 4096) return null;
    if (token.startsWith(API_KEY_TOKEN_PREFIX)) return resolveApiKey(token);
    return resolveOAuthToken(token);
  };
}
