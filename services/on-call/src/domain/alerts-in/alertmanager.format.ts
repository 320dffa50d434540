import { createHash } from 'node:crypto';
import type { Row } from '@firewatch/resource-kit';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { alertOf, templated, UnmappablePayload, type Intent } from './payload-fields.js';

/** More alerts than this in one notification is not Alertmanager's (its default group limit is far lower). */
export const MAX_ALERTMANAGER_ALERTS = 1000;

type Labels = Record<string, unknown>;

/** The years 1 to 9999: what a `startsAt` may name (PostgreSQL's own range is wider, but not below 4713 BC). */
const MIN_TIME = Date.parse('0001-01-01T00:00:00Z');
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const record = (v: unknown): Labels => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Labels) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The alert's identity when Alertmanager (before 0.19) sent no `fingerprint`: a digest of
 * its sorted label set, which is what Alertmanager's own fingerprint identifies.
 */
function fingerprintOf(alert: Labels): string {
  const given = text(alert.fingerprint);
  if (given) return given;
  const labels = Object.entries(record(alert.labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(labels)).digest('hex').slice(0, 16);
}

/**
 * Prometheus Alertmanager's webhook (version 4): one intent per entry of `alerts`, keyed
 * by its fingerprint. A firing alert is raised (or deduplicated into the open alert of its
 * fingerprint: Alertmanager repeats a firing group every repeat_interval); a resolved one
 * resolves that alert. The summary is the source's template over the entry, else
 * `annotations.summary`, else `labels.alertname`; labels become the alert's labels.
 * Grafana's alerting webhook is this notification with fields added, read by the same
 * function under its own name (`tool`).
 */
export function mapAlertmanager(source: Row, payload: Row, budget: EvaluationBudget, tool = 'Alertmanager'): Intent[] {
  if (!Array.isArray(payload.alerts)) throw new UnmappablePayload(`${tool} notifications have an "alerts" array; this payload has none.`);
  if (payload.alerts.length > MAX_ALERTMANAGER_ALERTS)
    throw new UnmappablePayload(`${tool} notifications of more than ${MAX_ALERTMANAGER_ALERTS} alerts are refused.`);
  const common = { labels: record(payload.commonLabels), annotations: record(payload.commonAnnotations) };
  return payload.alerts.map((entry: unknown, i: number): Intent => {
    const alert = record(entry);
    const labels = record(alert.labels);
    const annotations = record(alert.annotations);
    const key = fingerprintOf(alert);
    if (alert.status === 'resolved') return { kind: 'resolve', key, details: `Resolved by ${tool}.` };
    const fields = templated(source, alert, budget, {});
    const summary =
      fields.summary ??
      text(annotations.summary) ??
      text(labels.alertname) ??
      text(common.annotations.summary) ??
      text(common.labels.alertname);
    if (summary === null)
      throw new UnmappablePayload(`alerts[${i}] maps to no summary: it has no annotations.summary nor labels.alertname.`);
    const startsAt = text(alert.startsAt);
    const started = startsAt === null ? NaN : Date.parse(startsAt);
    return {
      kind: 'alert',
      alert: alertOf(
        source,
        {
          summary,
          description: fields.description ?? text(annotations.description) ?? text(common.annotations.description),
          external_url: fields.external_url ?? text(alert.generatorURL),
          external_id: key,
          deduplication_key: key,
          labels: Object.entries(labels)
            .filter(([, v]) => typeof v === 'string')
            .slice(0, 100)
            .map(([k, value]) => ({ key: k, value })),
          // A time PostgreSQL cannot hold (JavaScript's dates reach 271 821 BC) is no start time.
          started_at: started >= MIN_TIME && started <= MAX_TIME ? new Date(started) : null,
        },
        alert,
      ),
    };
  });
}
