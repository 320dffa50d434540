import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { createConcurrencyLimit, type ConcurrencyLimit, type ConcurrencyLimitOptions } from '@firewatch/concurrency';

// OWASP's scrypt floor is N=2^17 at r=8; 2^15 keeps a login under ~100 ms on small
// containers. The parameters travel with each hash, so raising them later only affects
// new hashes and old ones still verify.
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
const MAX_MEMORY = 256 * 1024 * 1024;

/** Defaults of {@link limitPasswordHashing}: half of libuv's 4 threads, a short queue. */
export const PASSWORD_HASHING_DEFAULTS: ConcurrencyLimitOptions = { concurrency: 2, queue: 32, waitMs: 2000 };

// scrypt runs on libuv's thread pool (4 threads by default), which DNS lookups, file
// access and other crypto share. Unbounded parallel logins would occupy every thread,
// so hashes take turns here. The pool is per process, hence one limit per process.
let slots: ConcurrencyLimit = createConcurrencyLimit(PASSWORD_HASHING_DEFAULTS);

/**
 * Sets how many password hashes may run at once in this process and how many may wait;
 * a hash that finds no slot in time throws a 503 (`ServiceUnavailableError`).
 */
export function limitPasswordHashing(options: Partial<ConcurrencyLimitOptions>): void {
  slots = createConcurrencyLimit({ ...PASSWORD_HASHING_DEFAULTS, ...options });
}

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N=..,r=..,p=..$<salt b64url>$<hash b64url>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await slots.run(() => scryptAsync(password, salt, KEY_LENGTH, DEFAULTS));
  const params = `N=${DEFAULTS.N},r=${DEFAULTS.r},p=${DEFAULTS.p}`;
  return `scrypt$${params}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when `password` produces `stored`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, params, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !params || !saltText || !keyText) return false;
  const values = Object.fromEntries(params.split(',').map((kv) => kv.split('=') as [string, string]));
  const N = Number(values.N);
  const r = Number(values.r);
  const p = Number(values.p);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(keyText, 'base64url');
  if (expected.length < 16) return false;
  // Parameters scrypt refuses (not a power of two, over the memory bound): not a match.
  // A refusal for lack of a slot (503) is no verdict on the password: it propagates.
  const salt = Buffer.from(saltText, 'base64url');
  const actual = await slots.run(() => scryptAsync(password, salt, expected.length, { N, r, p }).catch(() => null));
  return actual !== null && timingSafeEqual(expected, actual);
}
