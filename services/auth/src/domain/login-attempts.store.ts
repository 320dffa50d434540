/** The numbers of the login throttle (see oauth-login-throttle.ts). */
export interface LoginLimits {
  /** Failures per account within `windowMs` that lock it. */
  accountFailures: number;
  /** Failures per client address (any accounts) within `windowMs`. */
  addressFailures: number;
  windowMs: number;
  /** The first lock; each further lock within `levelMemoryMs` doubles, up to `maxLockMs`. */
  lockMs: number;
  maxLockMs: number;
  levelMemoryMs: number;
}

/** One login attempt: whose account, from which address, under which unique id. */
export interface AttemptKey {
  account: string;
  address: string;
  id: string;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Failure counters of the login form, shared by replicas (Redis) or in memory when
 * REDIS_URL is unset. An admitted attempt counts as a failure until it is settled, so
 * parallel guesses cannot overrun a budget while their hashes are computed.
 */
export interface LoginAttemptsStore {
  /** Counts one submission on an interaction; returns the count including this one. */
  countSubmission(uid: string, ttlMs: number): Promise<number>;
  /** Admits an attempt unless the account is locked or a budget is spent. */
  admit(key: AttemptKey, limits: LoginLimits, now: number): Promise<Admission>;
  /** A wrong password: the attempt stays counted; a full account budget locks the account. */
  fail(key: AttemptKey, limits: LoginLimits, now: number): Promise<void>;
  /** Not a failure: the attempt is uncounted; `forgive` also clears the account's failures and lock level. */
  settle(key: AttemptKey, forgive: boolean): Promise<void>;
}
