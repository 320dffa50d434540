import { createLocalJWKSet, importJWK, jwtVerify, SignJWT, errors as joseErrors, type JSONWebKeySet, type JWK } from 'jose';
import type { Principal } from './principal.js';

/** Header carrying the gateway-signed principal from the gateway to a service. */
export const PRINCIPAL_HEADER = 'x-firewatch-principal';

const ISSUER = 'firewatch-gateway';
/** Asymmetric only: a service holding the public key must not be able to sign. */
const ALGORITHMS = ['EdDSA', 'ES256'];

/** The one request a principal token is good for. */
export interface PrincipalTarget {
  /** The service it is meant for (`incident-config`, `webhooks`, ...): the token's `aud`. */
  audience: string;
  method: string;
  /** The path the service receives, without the query string. */
  path: string;
}

/**
 * What the gateway signs for an alert source's ingestion request (`/ingest/...`,
 * docs/security.md, "Alert ingestion"): it names no team, user or right, only the source
 * the path names; the service judges the source's own secret. A `/v1` verification
 * refuses it, so it can never stand for a caller of the API.
 */
export interface IngestionPrincipal {
  kind: 'ingestion';
  source_id: string;
}

const isIngestion = (p: object): boolean => (p as { kind?: unknown }).kind === 'ingestion';

export interface PrincipalSigner {
  /**
   * Signs `principal` for one method and path of one service. Memoised per
   * (`cacheKey`, target) for half the token's life, so a client repeating one request
   * (polling) costs one signature every few seconds; distinct requests cost one each.
   */
  sign(principal: Principal | IngestionPrincipal, target: PrincipalTarget, cacheKey?: string): Promise<string>;
}

export interface PrincipalVerifier {
  /** The principal when the token is genuine, unexpired, and for this service and request; else null. */
  verify(token: string | undefined, request: { method: string; path: string }): Promise<Principal | null>;
  /**
   * `verify`'s answer without waiting when the token was verified before and has not
   * expired; undefined when it must be verified (call `verify`). Most requests repeat a
   * token the gateway memoised: no promise, and the request goes on in the same tick.
   */
  verifyKnown?(token: string | undefined, request: { method: string; path: string }): Principal | null | undefined;
  /** The same for an ingestion request: its {@link IngestionPrincipal}, else null (an API principal included). */
  verifyIngestion(token: string | undefined, request: { method: string; path: string }): Promise<IngestionPrincipal | null>;
}

interface Memo<T> {
  value: T;
  expiresAt: number;
}

/** Keys longer than this (long, client-chosen paths) are not remembered: memory stays bounded. */
const MAX_MEMO_KEY = 2048;

function remember<T>(map: Map<string, Memo<T>>, max: number, key: string, value: T, expiresAt: number): void {
  if (key.length > MAX_MEMO_KEY) return;
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, { value, expiresAt });
}

/**
 * The gateway's side: signs with a private JWK (Ed25519 or P-256), which only the
 * gateway holds. Tokens live seconds and are bound to one service (`aud`), one method
 * (`htm`) and one path (`htu`), as DPoP proofs are (RFC 9449), so a captured token
 * cannot be replayed against another service or operation.
 */
export function createPrincipalSigner(options: { privateKey: JWK; ttlSeconds?: number; cacheSize?: number }): PrincipalSigner {
  const { privateKey } = options;
  const alg = privateKey.crv === 'P-256' ? 'ES256' : 'EdDSA';
  const key = importJWK(privateKey, alg);
  const ttl = options.ttlSeconds ?? 10;
  const max = options.cacheSize ?? 5_000;
  // The signing itself is remembered, not only its result: requests that arrive while a
  // token is being signed share it. Remembered after it resolved, each of them signed too,
  // and under load (signatures queue on the thread pool) most lookups did (docs/performance.md, Floor).
  const signed = new Map<string, Memo<Promise<string>>>();

  return {
    async sign(principal, target, cacheKey) {
      const now = Date.now();
      const memoKey = `${cacheKey ?? JSON.stringify(principal)} ${target.audience} ${target.method} ${target.path}`;
      const hit = signed.get(memoKey);
      if (hit && hit.expiresAt > now) return hit.value;
      const token = (async () =>
        new SignJWT({ p: principal, htm: target.method, htu: target.path })
          .setProtectedHeader({ alg, ...(privateKey.kid ? { kid: privateKey.kid } : {}) })
          .setIssuer(ISSUER)
          .setAudience(target.audience)
          .setIssuedAt()
          .setExpirationTime(`${ttl}s`)
          .sign(await key))();
      // Reuse for half the lifetime, counted from before signing (the token's own clock
      // starts later), so a forwarded token always has time left. A failed signing is forgotten.
      remember(signed, max, memoKey, token, now + (ttl * 1000) / 2);
      token.catch(() => {
        if (signed.get(memoKey)?.value === token) signed.delete(memoKey);
      });
      return token;
    },
  };
}

// A verified token is found by its last characters, its signature's, and then compared
// whole: a lookup hashes these instead of the whole token (some 650 characters, which the
// map hashed on every request, ~0.9 µs), and a token is still only ever taken for itself.
const TOKEN_KEY_LENGTH = 64;
const keyOf = (token: string) => (token.length > TOKEN_KEY_LENGTH ? token.slice(-TOKEN_KEY_LENGTH) : token);

interface Verified {
  principal: Principal | IngestionPrincipal;
  htm: unknown;
  htu: unknown;
}

/**
 * A service's side: verifies with the gateway's public keys only (a JWKS, so keys can
 * rotate) and for its own audience. Verified tokens are remembered until they expire;
 * method and path are checked on every request.
 */
export function createPrincipalVerifier(options: { publicKeys: JSONWebKeySet; audience: string; cacheSize?: number }): PrincipalVerifier {
  const keys = createLocalJWKSet(options.publicKeys);
  // Tokens carry their path, so entries are at most ~1.5 KB each.
  const max = options.cacheSize ?? 5_000;
  const verified = new Map<string, Memo<{ token: string; verified: Verified }>>();

  const remembered = (token: string): Verified | undefined => {
    const hit = verified.get(keyOf(token));
    return hit && hit.value.token === token && hit.expiresAt > Date.now() ? hit.value.verified : undefined;
  };

  async function check(token: string): Promise<Verified | null> {
    const hit = remembered(token);
    if (hit) return hit;
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: ISSUER, audience: options.audience, algorithms: ALGORITHMS });
      if (typeof payload.p !== 'object' || payload.p === null || payload.exp === undefined) return null;
      const value = { principal: payload.p as Principal | IngestionPrincipal, htm: payload.htm, htu: payload.htu };
      if (token.length <= MAX_MEMO_KEY) remember(verified, max, keyOf(token), { token, verified: value }, payload.exp * 1000);
      return value;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }

  const boundTo = (found: Verified | null, request: { method: string; path: string }) =>
    !found || found.htm !== request.method || found.htu !== request.path ? null : found.principal;
  const asApi = (principal: Principal | IngestionPrincipal | null) =>
    principal && !isIngestion(principal) ? (principal as Principal) : null;

  async function checkFor(token: string | undefined, request: { method: string; path: string }) {
    if (!token) return null;
    return boundTo(await check(token), request);
  }

  return {
    async verify(token, request) {
      return asApi(await checkFor(token, request));
    },
    verifyKnown(token, request) {
      if (!token) return null;
      const found = remembered(token);
      return found && asApi(boundTo(found, request));
    },
    async verifyIngestion(token, request) {
      const principal = await checkFor(token, request);
      return principal && isIngestion(principal) ? (principal as IngestionPrincipal) : null;
    },
  };
}
