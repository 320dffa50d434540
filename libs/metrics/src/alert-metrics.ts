import { counterOf, type Metrics } from './process-metrics.js';

/** Records alerts as they enter on-call. */
export interface AlertRecorder {
  /**
   * One alert of a payload or of `POST /v1/alerts`: `source` is the alert source's type
   * (`generic`, `alertmanager`, ...) or `api`; `outcome` what intake did (`created`,
   * `deduplicated`, `resolved`, `unmatched`). Both come from fixed sets: never an id.
   */
  ingested(source: string, outcome: string): void;
}

/** Alerts ingested, by source type and outcome (`firewatch_alerts_ingested_total`). */
export function alertRecorder(metrics: Metrics): AlertRecorder {
  const ingested = counterOf(metrics, 'firewatch_alerts_ingested_total', 'Alerts received, by source type and intake outcome.', [
    'source',
    'outcome',
  ]);
  return {
    ingested(source, outcome) {
      ingested.inc({ source, outcome });
    },
  };
}
