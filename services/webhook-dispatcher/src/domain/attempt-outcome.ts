import { retryDelay, type RetryPolicy } from './retry-policy.js';

/** What one HTTP attempt produced. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  retryAfterMs: number | null;
  error: string | null;
}

/** The delivery's next state after an attempt. */
export interface DeliveryTransition {
  status: 'delivered' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  failures: number;
  /** 410 Gone: the receiver asks never to be called again. */
  disableEndpoint: boolean;
  succeeded: boolean;
}

/**
 * Standard Webhooks semantics: any 2xx succeeds; 410 fails for good and disables the
 * endpoint; everything else (3xx, 4xx, 5xx, timeouts, connection and address
 * errors) is retried on the schedule until it runs out.
 */
export function nextTransition(result: AttemptResult, previousFailures: number, policy: RetryPolicy, now = new Date()): DeliveryTransition {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code < 300) {
    return { status: 'delivered', nextAttemptAt: null, deliveredAt: now, failures: 0, disableEndpoint: false, succeeded: true };
  }
  const failures = previousFailures + 1;
  if (code === 410) {
    return { status: 'failed', nextAttemptAt: null, deliveredAt: null, failures, disableEndpoint: true, succeeded: false };
  }
  const delay = retryDelay(failures, policy, result.retryAfterMs);
  return {
    status: delay === null ? 'failed' : 'pending',
    nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
    deliveredAt: null,
    failures,
    disableEndpoint: false,
    succeeded: false,
  };
}
