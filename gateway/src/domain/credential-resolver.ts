import { hash } from 'node:crypto';
import type { Principal } from '@firewatch/auth';
import { SingleFlightCache } from './credential-cache.js';
import { type CredentialLimits, rateLimitIdentities, type RateLimitIdentities } from './rate-limit.policy.js';

/** A bearer credential resolved for this gateway: who calls, and what budget they spend. */
export interface ResolvedCredential {
  principal: Principal;
  limits: CredentialLimits;
  /** Whose budgets it spends; `identities.credential` is also logged as the caller. */
  identities: RateLimitIdentities;
  /**
   * Memo key for signing the principal. Unique per resolution, not per identity: two OAuth
   * tokens of one client and user may carry different scopes, and a changed role must not
   * outlive the credential cache in an already-signed token.
   */
  signKey: string;
}

/** What the gateway needs from the auth service; see data/auth-service.client.ts. */
export interface CredentialSource {
  resolve(token: string): Promise<{ principal: Principal; rateLimits: CredentialLimits } | null>;
  ping(): Promise<void>;
}

export interface CredentialResolver {
  /** The credential behind a bearer token; null when unknown, revoked or expired. */
  resolve(token: string): Promise<ResolvedCredential | null>;
  /** The cached answer for a token, or undefined when resolving it would ask the auth service. */
  peek(token: string): ResolvedCredential | null | undefined;
  ping(): Promise<void>;
  close(): void;
}

export interface CredentialResolverOptions {
  source: CredentialSource;
  /** How long answers (positive and negative) are reused; bounds how long a revoked key works. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Resolves bearer tokens through the auth service, caching answers per replica. Keys are
 * SHA-256 digests, so no raw credential sits in memory longer than its request.
 */
export function createCredentialResolver({ source, ttlMs, maxEntries = 50_000, now }: CredentialResolverOptions): CredentialResolver {
  const cache = new SingleFlightCache<ResolvedCredential | null>(ttlMs, maxEntries, now);
  let resolutions = 0;

  async function load(token: string, digest: string): Promise<ResolvedCredential | null> {
    const answer = await source.resolve(token);
    if (answer === null) return null;
    resolutions = (resolutions + 1) % Number.MAX_SAFE_INTEGER;
    return {
      principal: answer.principal,
      limits: answer.rateLimits,
      identities: rateLimitIdentities(answer.principal),
      signKey: `${digest}:${resolutions}`,
    };
  }

  // One-shot: no Hash object per request.
  const digestOf = (token: string) => hash('sha256', token, 'base64url');

  return {
    peek(token) {
      return cache.peek(digestOf(token));
    },
    resolve(token) {
      const digest = digestOf(token);
      const hit = cache.peek(digest);
      if (hit !== undefined) return Promise.resolve(hit);
      return cache.get(digest, () => load(token, digest));
    },
    ping: () => source.ping(),
    close: () => cache.clear(),
  };
}
