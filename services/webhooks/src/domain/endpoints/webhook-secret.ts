import { randomBytes } from 'node:crypto';

/** Prefix of a Standard Webhooks symmetric secret. */
export const SECRET_PREFIX = 'whsec_';
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A new secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Why `secret` is not a usable `whsec_` secret, or null when it is. */
export function secretProblem(secret: string): string | null {
  if (!secret.startsWith(SECRET_PREFIX)) return `must start with ${SECRET_PREFIX}`;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return `must be ${SECRET_PREFIX} followed by standard base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) return `must encode ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes (got ${bytes})`;
  return null;
}

/** The HMAC key: the base64-decoded bytes after `whsec_`, as the Standard Webhooks libraries use it. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** What later reads show instead of the secret: the prefix and its last four characters. */
export function maskSecret(hint: string): string {
  return `${SECRET_PREFIX}****${hint}`;
}

/** The part of a secret kept in clear to recognise it (its last four characters). */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}
