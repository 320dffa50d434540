import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An alert source's ingestion secret (docs/security.md, "Alert ingestion"), and a
 * heartbeat's ping secret, which is made and kept the same way: 256 random bits, shown
 * once (on create and on rotate_secret), stored only as its SHA-256, so a read of the
 * database cannot present it. The prefix tells a leaked value's kind.
 */
const PREFIX = 'fwas_';
/** A heartbeat's ping secret's prefix. */
export const HEARTBEAT_SECRET_PREFIX = 'fwhb_';

/** A new secret: `fwas_` (or `prefix`) and 43 base64url characters. */
export function generateSourceSecret(prefix = PREFIX): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** What is stored: the SHA-256 of the secret. */
export function hashSourceSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** The last four characters, kept to tell secrets apart in reads. */
export function sourceSecretHint(secret: string): string {
  return secret.slice(-4);
}

/** How reads show the secret: `fwas_****abcd`. */
export function maskSourceSecret(hint: string, prefix = PREFIX): string {
  return `${prefix}****${hint}`;
}

/** Whether `presented` is the secret hashed as `stored`, in constant time (both are 32-byte digests). */
export function sourceSecretMatches(presented: string, stored: Buffer): boolean {
  const digest = hashSourceSecret(presented);
  return stored.length === digest.length && timingSafeEqual(digest, stored);
}
