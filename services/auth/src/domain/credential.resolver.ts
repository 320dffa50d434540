import type { Principal } from '@firewatch/auth';
import { API_KEY_TOKEN_PREFIX } from './api-key-token.js';
import type { OAuthTokenResolver } from './oauth-token.resolver.js';

/** What the gateway receives for a valid credential. */
export interface Resolution {
  principal: Principal;
  /** Per-credential overrides; null means the gateway's default. */
  rate_limits: { read: number | null; write: number | null };
}

export interface CredentialResolverDeps {
  resolveApiKey: (token: string) => Promise<Resolution | null>;
  resolveOAuthToken: OAuthTokenResolver;
}

export type CredentialResolver = (token: string) => Promise<Resolution | null>;

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
