import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';

const HASHED = 'sha256$';

/** A new client secret: 48 random bytes, base64url (64 characters). */
export function newClientSecret(): string {
  return randomBytes(48).toString('base64url');
}

function digest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/**
 * Client payloads are stored with the secret's SHA-256, never the secret itself: a
 * secret is shown once (docs/api-contract.md §3.4) and cannot be read back, not even
 * from the database. Secrets are 384 random bits, so an unsalted fast hash is enough,
 * as for API keys.
 */
export function protectClientPayload(payload: AdapterPayload): AdapterPayload {
  const secret = payload.client_secret;
  if (typeof secret !== 'string' || secret.startsWith(HASHED)) return payload;
  return { ...payload, client_secret: `${HASHED}${digest(secret)}` };
}

/** Constant-time check of a presented secret against the stored form. */
export function clientSecretMatches(stored: string | undefined, presented: string | undefined): boolean {
  if (!stored || !presented || !stored.startsWith(HASHED)) return false;
  const expected = Buffer.from(stored.slice(HASHED.length), 'base64url');
  const actual = Buffer.from(digest(presented), 'base64url');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
