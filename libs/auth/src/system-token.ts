import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

const ISSUER = 'firewatch-gateway';
const AUDIENCE = 'firewatch-internal';

export interface SystemTokens {
  /** A token for a process-to-process call (gateway → auth), carrying no principal. */
  sign(subject: string): Promise<string>;
  /** The caller's subject, or null when the token is missing, forged or expired. */
  verify(token: string | undefined): Promise<string | null>;
}

/**
 * HS256 tokens keyed with `SYSTEM_TOKEN_SECRET`, which only the gateway and the auth
 * service hold: the auth service's `/internal` endpoints answer no one else. It is a
 * different key from the principal signing key, so neither can stand in for the other.
 */
export function createSystemTokens(secret: string, options: { ttlSeconds?: number } = {}): SystemTokens {
  const key = new TextEncoder().encode(secret);
  const ttl = options.ttlSeconds ?? 60;
  return {
    async sign(subject) {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${ttl}s`)
        .sign(key);
    },
    async verify(token) {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        return payload.sub ?? null;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
