import { nextTransition } from '../src/domain/attempt-outcome.js';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetryAfter, retryDelay } from '../src/domain/retry-policy.js';

const policy = { schedule: DEFAULT_RETRY_SCHEDULE_MS, jitter: 0.2 };
const result = (statusCode: number | null, retryAfterMs: number | null = null) => ({
  statusCode,
  retryAfterMs,
  durationMs: 1,
  responseBody: '',
  error: null,
});

describe('retry schedule', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h within ±20 % and then gives up', () => {
    const expected = [5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000);
    expected.forEach((ms, i) => {
      expect(retryDelay(i + 1, policy, null, () => 0)).toBe(Math.round(ms * 0.8));
      expect(retryDelay(i + 1, policy, null, () => 1)).toBe(Math.round(ms * 1.2));
      expect(retryDelay(i + 1, policy, null, () => 0.5)).toBe(ms);
    });
    expect(retryDelay(8, policy)).toBeNull();
  });

  it('lets Retry-After push a retry later, never earlier, and clamps it', () => {
    expect(retryDelay(1, policy, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelay(2, policy, 1_000, () => 0.5)).toBe(300_000);
    expect(retryDelay(1, { ...policy, maxRetryAfterMs: 120_000 }, 10 * 86_400_000, () => 0.5)).toBe(120_000);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('attempt outcomes', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('treats any 2xx as delivered and resets the failure count', () => {
    expect(nextTransition(result(204), 3, policy, now)).toMatchObject({
      status: 'delivered',
      deliveredAt: now,
      failures: 0,
      nextAttemptAt: null,
      succeeded: true,
    });
  });
  it('retries 3xx, 4xx, 5xx and transport errors on the schedule', () => {
    for (const code of [301, 400, 429, 500, null]) {
      const t = nextTransition(result(code), 0, { schedule: [1000], jitter: 0 }, now);
      expect(t).toMatchObject({ status: 'pending', failures: 1, disableEndpoint: false });
      expect(t.nextAttemptAt!.getTime() - now.getTime()).toBe(1000);
    }
    expect(nextTransition(result(500), 1, { schedule: [1000], jitter: 0 }, now)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      failures: 2,
    });
  });
  it('gives up and disables the endpoint on 410', () => {
    expect(nextTransition(result(410), 0, policy, now)).toMatchObject({ status: 'failed', disableEndpoint: true });
  });
});
