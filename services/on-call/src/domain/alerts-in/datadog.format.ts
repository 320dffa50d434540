import type { Row } from '@firewatch/resource-kit';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { alertOf, sourceKey, templated, UnmappablePayload, type Intent } from './payload-fields.js';

/** Where a Datadog payload's fields are (docs/on-call.md, "Datadog": the template a source's webhook sends). */
const DEFAULTS = {
  title: ['$.title', '$.alert_title'],
  description: ['$.body', '$.text_only_msg'],
  external_url: ['$.link'],
};

/** `$ALERT_TRANSITION` values that end an alert; every other (Triggered, Re-Triggered, Warn, No Data, Renotify…) raises or repeats it. */
const RECOVERED = new Set(['recovered']);

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** `$TAGS` ("env:prod,service:api,solo") as labels: `key:value`, a bare tag with an empty value. */
function labelsOf(tags: unknown): { key: string; value: string }[] {
  const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? tags.split(',') : [];
  return list
    .flatMap((t) => (typeof t === 'string' && t.trim() ? [t.trim()] : []))
    .slice(0, 100)
    .map((t) => {
      const at = t.indexOf(':');
      return at < 0 ? { key: t, value: '' } : { key: t.slice(0, at), value: t.slice(at + 1) };
    });
}

/** `$DATE` / `$LAST_UPDATED`: epoch milliseconds, as a number or its digits; anything else is no time. */
function timeOf(v: unknown): Date | null {
  const ms = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(ms) && ms > 0 && ms < Date.UTC(9999, 11, 31) ? new Date(ms) : null;
}

/**
 * Datadog's Webhooks integration: its payload is the user's template of `$VARIABLES`, so a
 * source reads the template documented in docs/on-call.md ("Datadog"), Datadog's default
 * payload plus `alert_transition`, `aggreg_key` and `link`. One monitor notification is one
 * alert keyed by `$AGGREG_KEY` (the monitor and its group: Datadog's own key for
 * notifications that belong together), else `$ALERT_ID`; `Recovered` resolves it, any
 * other transition raises it or counts into the open one. The source's template, mappings
 * and key rule win over these defaults, as for a generic webhook.
 */
export function mapDatadog(source: Row, payload: Row, budget: EvaluationBudget): Intent[] {
  const fields = templated(source, payload, budget, DEFAULTS);
  const key = sourceKey(source, payload, budget) ?? text(payload.aggreg_key) ?? text(payload.alert_id) ?? fields.external_id;
  const transition = text(payload.alert_transition);
  if (transition && RECOVERED.has(transition.toLowerCase())) {
    if (!key)
      throw new UnmappablePayload('A Recovered notification needs aggreg_key ($AGGREG_KEY) or alert_id ($ALERT_ID) to find its alert by.');
    return [{ kind: 'resolve', key, details: 'Recovered in Datadog.' }];
  }
  if (fields.summary === null)
    throw new UnmappablePayload(
      "The payload maps to no summary: send title ($EVENT_TITLE), or set the source's alert_template_attributes.title.",
    );
  return [
    {
      kind: 'alert',
      alert: alertOf(
        source,
        {
          summary: fields.summary,
          description: fields.description,
          external_url: fields.external_url,
          external_id: fields.external_id ?? text(payload.id),
          deduplication_key: key,
          labels: labelsOf(payload.tags),
          started_at: timeOf(payload.date),
        },
        payload,
      ),
    },
  ];
}
