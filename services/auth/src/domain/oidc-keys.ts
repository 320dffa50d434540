import { createHash, createHmac, createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { deriveRsaPrivateJwk } from './derived-rsa-key.js';

export interface SigningJwk {
  kty: string;
  kid: string;
  alg: string;
  use: string;
  [key: string]: unknown;
}

export interface OidcKeys {
  /** Private JWKS: the first key signs, every key is published (rotation). */
  jwks: { keys: SigningJwk[] };
  /** Cookie signing keys, newest first (older ones still verify). */
  cookieKeys: string[];
  /** True when nothing was configured and the keys were derived from the internal secret. */
  derived: boolean;
}

export class OidcKeyConfigError extends Error {
  override name = 'OidcKeyConfigError';
}

/** RFC 7638 thumbprint of an RSA key: a stable kid for a key that has none. */
function rsaThumbprint(jwk: { e: unknown; n: unknown }): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}

function normalise(raw: Record<string, unknown>, index: number): SigningJwk {
  if (raw.kty !== 'RSA' || typeof raw.n !== 'string' || typeof raw.d !== 'string') {
    throw new OidcKeyConfigError(`OIDC_JWKS: key ${index} must be a private RSA key (kty RSA with n and d)`);
  }
  if (raw.alg !== undefined && raw.alg !== 'RS256') throw new OidcKeyConfigError(`OIDC_JWKS: key ${index} must be for RS256`);
  try {
    const key = createPrivateKey({ key: raw as never, format: 'jwk' });
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('shorter than 2048 bits');
  } catch (err) {
    throw new OidcKeyConfigError(`OIDC_JWKS: key ${index} is not a usable RSA private key (${(err as Error).message})`);
  }
  return {
    ...raw,
    kty: 'RSA',
    alg: 'RS256',
    use: 'sig',
    kid: typeof raw.kid === 'string' && raw.kid ? raw.kid : rsaThumbprint(raw as never),
  };
}

function parseJwks(text: string): SigningJwk[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OidcKeyConfigError('OIDC_JWKS must be JSON: {"keys": [<private RSA JWK>, ...]}');
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new OidcKeyConfigError('OIDC_JWKS must have a non-empty "keys" array');
  const out = keys.map((k, i) => normalise(k as Record<string, unknown>, i));
  if (new Set(out.map((k) => k.kid)).size !== out.length) throw new OidcKeyConfigError('OIDC_JWKS: key ids (kid) must be unique');
  return out;
}

const derivedCache = new Map<string, SigningJwk[]>();

/** Two keys from the secret: the first signs, the second is published as the next one. */
function derivedJwks(secret: string): SigningJwk[] {
  const cacheKey = createHash('sha256').update(secret).digest('hex');
  let keys = derivedCache.get(cacheKey);
  if (!keys) {
    keys = ['signing-1', 'signing-2'].map((label) => {
      const jwk = deriveRsaPrivateJwk(secret, label);
      return { ...jwk, alg: 'RS256', use: 'sig', kid: `derived-${rsaThumbprint(jwk).slice(0, 16)}` };
    });
    derivedCache.set(cacheKey, keys);
  }
  return keys;
}

/**
 * The provider's keys from configuration, or, when none are configured (local runs and
 * tests), derived deterministically from DEV_KEY_SEED so that replicas agree. `warn` is
 * told when that fallback is used.
 */
export function loadOidcKeys(input: { jwks?: string; cookieKeys: string[]; seed?: string; warn?: (msg: string) => void }): OidcKeys {
  const configured = input.jwks !== undefined;
  const seed = () => {
    if (input.seed === undefined) throw new Error('OIDC keys are not configured and there is no DEV_KEY_SEED to derive them from');
    return input.seed;
  };
  const keys = configured ? parseJwks(input.jwks as string) : derivedJwks(seed());
  const cookieKeys = input.cookieKeys.length
    ? input.cookieKeys
    : [createHmac('sha256', seed()).update('firewatch-oidc-cookie-key-1').digest('base64url')];
  if (!configured || !input.cookieKeys.length) {
    input.warn?.(
      'OIDC_JWKS and/or OIDC_COOKIE_KEYS are not set: using keys derived from DEV_KEY_SEED. ' +
        'Fine for local runs and tests; generate real ones with `firewatch keys generate` for any other install.',
    );
  }
  return { jwks: { keys }, cookieKeys, derived: !configured };
}

/** A new RS256 signing key (private JWK with kid) and a cookie key, for `firewatch keys generate`. */
export function generateSigningKey(): { jwk: SigningJwk; cookieKey: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const kid = `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
  return { jwk: { ...jwk, kty: 'RSA', kid, alg: 'RS256', use: 'sig' }, cookieKey: randomBytes(32).toString('base64url') };
}

/** Appends `jwk` to an existing OIDC_JWKS value (published, not yet signing). */
export function appendKey(existing: string | undefined, jwk: SigningJwk): { keys: SigningJwk[] } {
  return { keys: [...(existing ? parseJwks(existing) : []), jwk] };
}
