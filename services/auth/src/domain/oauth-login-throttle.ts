import { createHash, randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '@firewatch/errors';
import type { LoginAttemptsStore, LoginLimits } from './login-attempts.store.js';

/** Submissions of the login form allowed per interaction; the next one must start again. */
export const SUBMISSIONS_PER_INTERACTION = 5;

/** Defaults of the login throttle (docs/oauth.md, "Login throttling"). */
export const LOGIN_LIMIT_DEFAULTS: LoginLimits = {
  accountFailures: 5,
  addressFailures: 30,
  windowMs: 15 * 60_000,
  lockMs: 60_000,
  maxLockMs: 3_600_000,
  levelMemoryMs: 24 * 3_600_000,
};

/** An admitted attempt; report how it ended exactly once. */
export interface LoginAttempt {
  /** Wrong password (or unknown email). */
  failed(): Promise<void>;
  /** The password was right: forgives the account's earlier failures. */
  succeeded(): Promise<void>;
  /** Nothing was decided (an error, the server too busy): the attempt does not count. */
  abandoned(): Promise<void>;
}

export type LoginAdmission = { ok: true; attempt: LoginAttempt } | { ok: false; retryAfterSeconds: number };

/**
 * Brute-force and credential-stuffing protection of the login form (docs/oauth.md,
 * "Login throttling"): failures are counted per account (the email, whether or not it
 * exists, so the answers reveal nothing) and per client address. A full account budget
 * locks the account, from every address, for a time that doubles with each lock; a full
 * address budget refuses that address for any account. Without the shared counters
 * (Redis down) logins are refused with 503 rather than let guesses through unbounded.
 */
export function createLoginThrottle(deps: { store: LoginAttemptsStore; limits?: Partial<LoginLimits>; interactionTtlMs?: number }) {
  const limits: LoginLimits = { ...LOGIN_LIMIT_DEFAULTS, ...deps.limits };
  const guarded = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch {
      throw new ServiceUnavailableError('Sign-in is unavailable for a moment. Try again shortly.', { headers: { 'Retry-After': '5' } });
    }
  };

  return {
    /** False when this interaction has used up its submissions (the 6th and later). */
    async countSubmission(uid: string): Promise<boolean> {
      const count = await guarded(() => deps.store.countSubmission(uid, deps.interactionTtlMs ?? 3_600_000));
      return count <= SUBMISSIONS_PER_INTERACTION;
    },

    /** Admits a password check for `email` from `address`, or says how long to wait. */
    async admit(email: string, address: string): Promise<LoginAdmission> {
      // Hashed: Redis keys then carry no email addresses and no attacker-chosen bytes.
      const account = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
      const key = { account, address, id: randomUUID() };
      const verdict = await guarded(() => deps.store.admit(key, limits, Date.now()));
      if (!verdict.ok) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)) };
      return {
        ok: true,
        attempt: {
          failed: () => guarded(() => deps.store.fail(key, limits, Date.now())),
          succeeded: () => guarded(() => deps.store.settle(key, true)),
          abandoned: () => deps.store.settle(key, false).catch(() => undefined),
        },
      };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
