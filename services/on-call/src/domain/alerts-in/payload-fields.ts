import type { Row } from '@firewatch/resource-kit';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { pathText, renderTemplate } from './alert-template.js';
import { deduplicationKey } from './deduplication-key.js';
import type { IncomingAlert } from './alert-intake.js';
import { MAX_ALERT_DATA } from './alerts.schemas.js';

/** What one payload asks for: alerts to raise, and alerts to resolve by key. */
export type Intent = { kind: 'alert'; alert: IncomingAlert } | { kind: 'resolve'; key: string; details: string | null };

/** A payload that cannot become an alert: the 422 detail, also kept as the source's last error. */
export class UnmappablePayload extends Error {}

interface Template {
  title?: string | null;
  description?: string | null;
  external_url?: string | null;
}

export interface Sourceable {
  auto_resolve?: boolean;
  resolve_state?: string | null;
  field_mappings_attributes?: { field: string; json_path: string }[];
}

/** Where a generic payload's fields are looked for when the source's template does not say. */
const DEFAULTS = {
  title: ['$.summary', '$.title', '$.message'],
  description: ['$.description'],
  external_url: ['$.external_url', '$.url'],
};

const first = (payload: unknown, templates: readonly (string | null | undefined)[], budget: EvaluationBudget) => {
  for (const t of templates) {
    const value = t ? renderTemplate(t, payload, budget) : null;
    if (value !== null) return value;
  }
  return null;
};

/** The fields of one alert read from `payload` by the source's template, mappings and defaults, charged to `budget`. */
export function templated(
  source: Row,
  payload: unknown,
  budget: EvaluationBudget,
  defaults: Partial<Record<keyof typeof DEFAULTS, string[]>> = DEFAULTS,
) {
  const template = (source.alert_template_attributes ?? {}) as Template;
  const mapped = Object.fromEntries(
    ((source.sourceable_attributes as Sourceable | null)?.field_mappings_attributes ?? []).map((m) => [m.field, m.json_path]),
  );
  return {
    summary: first(payload, [mapped.alert_title, template.title, ...(defaults.title ?? [])], budget),
    description: first(payload, [mapped.alert_description, template.description, ...(defaults.description ?? [])], budget),
    external_url: first(payload, [mapped.alert_external_url, template.external_url, ...(defaults.external_url ?? [])], budget),
    external_id: mapped.external_id ? pathText(payload, mapped.external_id, budget) : null,
    state: mapped.state ? pathText(payload, mapped.state, budget) : null,
  };
}

/** The source's own key rule, when it deduplicates by key. */
export function sourceKey(source: Row, payload: unknown, budget: EvaluationBudget): string | null {
  if (!source.deduplicate_alerts_by_key || typeof source.deduplication_key_path !== 'string') return null;
  return deduplicationKey(
    payload,
    { path: source.deduplication_key_path, regexp: (source.deduplication_key_regexp as string | null) ?? null },
    budget,
  );
}

/**
 * What of a payload an alert keeps as `data`: the payload when at most MAX_ALERT_DATA as
 * JSON, as `POST /v1/alerts` takes it, else nothing: every read and event carries it, and
 * a source may post 512 KiB.
 */
function keptData(payload: unknown): Row | null {
  const data = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Row) : { payload };
  return JSON.stringify(data).length <= MAX_ALERT_DATA ? data : null;
}

/** A new alert of the source with these fields. */
export function alertOf(source: Row, fields: { summary: string } & Row, payload: unknown): IncomingAlert {
  return {
    status: 'triggered',
    alert_urgency_id: source.alert_urgency_id ?? null,
    description: null,
    external_url: null,
    external_id: null,
    deduplication_key: null,
    labels: [],
    data: keptData(payload),
    ...fields,
  };
}
