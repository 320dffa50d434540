import { counterOf, type Metrics } from './process-metrics.js';

/** Records alerts as they enter on-call. */
export interface AlertRecorder {
  /**
   * One alert of a payload or of `POST /v1/alerts`: `source` is the alert source's type
   * (`generic_webhook`, `alertmanager`, ...) or `api`; `outcome` what intake did
   * (`created`, `deduplicated`, `resolved`, `unmatched`). Both come from fixed sets:
   * never an id.
   */
  ingested(source: string, outcome: string): void;
  /**
   * A payload of an authenticated source that made no alert: `reason` is the refusal's
   * error code (`unmappable_payload`, `invalid_json`, `payload_too_large`, ...) or
   * `source_disabled`. A refused secret is not counted here (it names no source type).
   */
  refused(source: string, reason: string): void;
}

/**
 * Alerts ingested, by source type and outcome (`firewatch_alerts_ingested_total`; the
 * deduplicated ones are `outcome="deduplicated"`), and payloads refused, by source type
 * and reason (`firewatch_alert_payloads_refused_total`).
 */
export function alertRecorder(metrics: Metrics): AlertRecorder {
  const ingested = counterOf(metrics, 'firewatch_alerts_ingested_total', 'Alerts received, by source type and intake outcome.', [
    'source',
    'outcome',
  ]);
  const refused = counterOf(
    metrics,
    'firewatch_alert_payloads_refused_total',
    'Payloads of an authenticated alert source that made no alert, by source type and reason.',
    ['source', 'reason'],
  );
  return {
    ingested(source, outcome) {
      ingested.inc({ source, outcome });
    },
    refused(source, reason) {
      refused.inc({ source, reason });
    },
  };
}
