import type { Principal } from '@firewatch/auth';

/** What the gateway receives for a valid credential. */
export interface Resolution {
  principal: Principal;
  /** Per-credential overrides; null means the gateway's default. */
  rate_limits: { read: number | null; write: number | null };
}

/** Turns one kind of bearer token into a resolution; null when it is not a live credential. */
export type TokenResolver = (token: string) => Promise<Resolution | null>;

/**
 * Any bearer credential: API keys first, then OAuth access tokens
 * (docs/api-contract.md §3.1).
 */
export type CredentialResolver = TokenResolver;

/** OAuth access tokens, tried after API keys. */
export type OAuthTokenResolver = TokenResolver;
