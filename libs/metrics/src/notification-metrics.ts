import { counterOf, histogramOf, type Metrics } from './process-metrics.js';

/** Records pages as they leave on-call (the notification send job hands one to its wiring). */
export interface NotificationRecorder {
  /**
   * One notification attempt's outcome: `channel` email, sms or voice; `outcome` sent,
   * failed or skipped; `lateSeconds` from when this try was due (its rule's delay after the
   * level paged, or its retry time) to when the channel answered: what the send job and the
   * channel add to the wait a person chose.
   */
  attempt(channel: string, outcome: string, lateSeconds: number): void;
}

// A page is due at once; seconds to minutes late is what an operator needs to tell apart.
const PAGE_LATENCY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

/**
 * Notification attempts by channel and outcome (`firewatch_notifications_total`) and how
 * long after each try was due it was handed to its channel (`firewatch_notification_latency_seconds`).
 */
export function notificationRecorder(metrics: Metrics): NotificationRecorder {
  const attempts = counterOf(metrics, 'firewatch_notifications_total', 'Notification attempts (pages), by channel and outcome.', [
    'channel',
    'outcome',
  ]);
  const latency = histogramOf(
    metrics,
    'firewatch_notification_latency_seconds',
    'Time from when a notification was due to when its channel answered, by channel and outcome.',
    ['channel', 'outcome'],
    PAGE_LATENCY_BUCKETS,
  );
  return {
    attempt(channel, outcome, lateSeconds) {
      attempts.inc({ channel, outcome });
      latency.observe({ channel, outcome }, Math.max(0, lateSeconds));
    },
  };
}
