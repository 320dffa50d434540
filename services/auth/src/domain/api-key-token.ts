import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every API key token starts with this, so the resolver can tell keys from OAuth tokens. */
export const API_KEY_TOKEN_PREFIX = 'fwk_';

const PREFIX_LENGTH = 10;
const SECRET_BYTES = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// fwk_ + 10 base62 + _ + 43 base64url (32 bytes without padding).
const TOKEN_SHAPE = /^fwk_([0-9A-Za-z]{10})_([A-Za-z0-9_-]{43,})$/;

export interface IssuedToken {
  /** The full token, shown to the client once. */
  token: string;
  /** Public lookup half, stored in clear. */
  prefix: string;
  /** SHA-256 hex of the full token; the only form of the secret we keep. */
  hash: string;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A fresh token `fwk_<prefix>_<secret>` with its prefix and hash. */
export function issueToken(): IssuedToken {
  const prefix = randomBase62(PREFIX_LENGTH);
  const token = `${API_KEY_TOKEN_PREFIX}${prefix}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { token, prefix, hash: hashToken(token) };
}

/** The prefix of a well-formed API key token; null for anything else. */
export function tokenPrefix(token: string): string | null {
  if (token.length > 200) return null;
  return TOKEN_SHAPE.exec(token)?.[1] ?? null;
}

/** Constant-time comparison of a presented token against a stored hash. */
export function tokenMatches(token: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHash('sha256').update(token, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
