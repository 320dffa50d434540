import { counterOf, histogramOf, LATENCY_BUCKETS, type Metrics } from './process-metrics.js';

/** What became of one webhook attempt: delivered, to be tried again, or given up (retries spent, 410). */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** Records webhook delivery attempts (the dispatcher hands one to its wiring, never to its domain). */
export interface DeliveryRecorder {
  /** `statusCode` null: no answer (timeout, refused connection, address not allowed). */
  attempt(outcome: DeliveryOutcome, statusCode: number | null, seconds: number): void;
}

/**
 * Webhook delivery attempts by outcome and status class (`firewatch_webhook_delivery_attempts_total`,
 * status class `none` when no answer came) and their duration by outcome
 * (`firewatch_webhook_delivery_attempt_duration_seconds`).
 */
export function deliveryRecorder(metrics: Metrics): DeliveryRecorder {
  const attempts = counterOf(
    metrics,
    'firewatch_webhook_delivery_attempts_total',
    'Webhook delivery attempts, by outcome and status class.',
    ['outcome', 'status_class'],
  );
  const duration = histogramOf(
    metrics,
    'firewatch_webhook_delivery_attempt_duration_seconds',
    'Time of one webhook delivery attempt, by outcome.',
    ['outcome'],
    LATENCY_BUCKETS,
  );
  return {
    attempt(outcome, statusCode, seconds) {
      attempts.inc({ outcome, status_class: statusCode === null ? 'none' : `${String(statusCode)[0]}xx` });
      duration.observe({ outcome }, seconds);
    },
  };
}
