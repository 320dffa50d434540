/** Raised when the store is unreachable; the gateway then refuses rather than lets through. */
export class RateLimitStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The rate-limit store is unavailable.', { cause });
    this.name = 'RateLimitStoreUnavailableError';
  }
}
