import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Principal } from './principal.js';

/** Header carrying the gateway-signed principal from the gateway to a service. */
export const PRINCIPAL_HEADER = 'x-firewatch-principal';

const ISSUER = 'firewatch-gateway';
const PRINCIPAL_AUDIENCE = 'firewatch-services';
const SYSTEM_AUDIENCE = 'firewatch-internal';

export interface InternalTokens {
  /** Signs a principal for one hop; cached so the hot path signs rarely. */
  signPrincipal(principal: Principal, cacheKey?: string): Promise<string>;
  /** Verifies a principal token; null when missing, forged or expired. */
  verifyPrincipal(token: string | undefined): Promise<Principal | null>;
  /** A token for process-to-process calls (gateway → auth), carrying no principal. */
  signSystem(subject: string): Promise<string>;
  verifySystem(token: string | undefined): Promise<string | null>;
}

interface Cached<T> {
  value: T;
  expiresAt: number;
}

/**
 * HS256 tokens with a secret shared by the gateway and the services. Signing and
 * verifying are memoised for part of the token's life: a busy key then costs one
 * HMAC per few seconds instead of one per request.
 */
export function createInternalTokens(secret: string, options: { ttlSeconds?: number; cacheSize?: number } = {}): InternalTokens {
  const key = new TextEncoder().encode(secret);
  const ttl = options.ttlSeconds ?? 60;
  const max = options.cacheSize ?? 10_000;
  const signed = new Map<string, Cached<string>>();
  const verified = new Map<string, Cached<Principal>>();

  function remember<T>(map: Map<string, Cached<T>>, k: string, value: T, expiresAt: number) {
    if (map.size >= max) map.delete(map.keys().next().value as string);
    map.set(k, { value, expiresAt });
  }

  async function sign(claims: Record<string, unknown>, audience: string, subject: string): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(`${ttl}s`)
      .sign(key);
  }

  async function verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ['HS256'] });
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  return {
    async signPrincipal(principal, cacheKey) {
      const now = Date.now();
      const k = cacheKey ?? JSON.stringify(principal);
      const hit = signed.get(k);
      if (hit && hit.expiresAt > now) return hit.value;
      const token = await sign({ p: principal }, PRINCIPAL_AUDIENCE, String(principal.user_id ?? principal.team_id));
      // Reuse for half the lifetime so a forwarded token always has time left.
      remember(signed, k, token, now + (ttl * 1000) / 2);
      return token;
    },
    async verifyPrincipal(token) {
      if (!token) return null;
      const now = Date.now();
      const hit = verified.get(token);
      if (hit && hit.expiresAt > now) return hit.value;
      const payload = await verify(token, PRINCIPAL_AUDIENCE);
      if (!payload || typeof payload.p !== 'object' || payload.p === null) return null;
      const principal = payload.p as Principal;
      remember(verified, token, principal, (payload.exp ?? 0) * 1000);
      return principal;
    },
    async signSystem(subject) {
      return sign({}, SYSTEM_AUDIENCE, subject);
    },
    async verifySystem(token) {
      if (!token) return null;
      const payload = await verify(token, SYSTEM_AUDIENCE);
      return payload?.sub ?? null;
    },
  };
}
