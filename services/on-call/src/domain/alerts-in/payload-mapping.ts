import type { Row } from '@firewatch/resource-kit';
import { depthWithin, MAX_PAYLOAD_DEPTH } from '../matching/alert-input.schema.js';
import { evaluationBudget, EvaluationBudgetExceeded, type EvaluationBudget } from '../matching/evaluation-budget.js';
import { mapAlertmanager } from './alertmanager.format.js';
import { mapDatadog } from './datadog.format.js';
import { mapGrafana } from './grafana.format.js';
import { MAX_DEDUPLICATION_KEY } from './deduplication-key.js';
import { storableText } from './payload-text.js';
import { alertOf, sourceKey, templated, UnmappablePayload, type Intent, type Sourceable } from './payload-fields.js';

/**
 * A generic webhook (and every type without a format of its own): one alert per payload,
 * mapped by the source's template. With `auto_resolve`, a payload whose mapped `state` is
 * the source's `resolve_state` resolves the alert with its key (the deduplication key,
 * else the mapped external_id) instead.
 */
function mapGeneric(source: Row, payload: unknown, budget: EvaluationBudget): Intent[] {
  const fields = templated(source, payload, budget);
  const key = sourceKey(source, payload, budget) ?? fields.external_id;
  const sourceable = (source.sourceable_attributes ?? {}) as Sourceable;
  if (sourceable.auto_resolve && fields.state !== null && fields.state === sourceable.resolve_state) {
    if (!key)
      throw new UnmappablePayload(
        'The payload is a resolve notification, but it maps to no deduplication key or external_id to find its alert by.',
      );
    return [{ kind: 'resolve', key, details: `Resolved by its source: state "${fields.state}".` }];
  }
  if (fields.summary === null)
    throw new UnmappablePayload(
      "The payload maps to no summary: the source's alert_template_attributes.title (else $.summary, $.title or $.message) selects nothing.",
    );
  const { state: _state, ...rest } = fields;
  return [{ kind: 'alert', alert: alertOf(source, { ...rest, summary: fields.summary, deduplication_key: key }, payload) }];
}

/** The types with a format of their own; every other type is read as a generic webhook. */
const FORMATS: Record<string, (source: Row, payload: Row, budget: EvaluationBudget) => Intent[]> = {
  alertmanager: mapAlertmanager,
  grafana: mapGrafana,
  datadog: mapDatadog,
};

/** What a source's payload asks for, by the source's type; UnmappablePayload when it asks for nothing usable. */
export function mapPayload(source: Row, payload: unknown): Intent[] {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new UnmappablePayload('The payload must be a JSON object.');
  // JSON Path evaluation recurses: a payload nested deeper than the matching engine takes is refused before any path runs.
  if (!depthWithin(payload, MAX_PAYLOAD_DEPTH)) throw new UnmappablePayload(`The payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels.`);
  const stored = storableText(payload) as Row;
  // One budget for all of a payload's paths, as one evaluation has (the matching engine's).
  const budget = evaluationBudget();
  try {
    const format = FORMATS[String(source.source_type)] ?? mapGeneric;
    const intents = format(source, stored, budget);
    return intents.map(boundedKey);
  } catch (error) {
    if (!(error instanceof EvaluationBudgetExceeded)) throw error;
    throw new UnmappablePayload(
      `The payload is too much for the source's templates and key paths in one request (${error.what}): send a smaller payload, or use simpler paths.`,
    );
  }
}

/**
 * Every key cut as the source's own key rule cuts it, whatever gave it (a fingerprint, an
 * external id): a longer one would exceed the unique index's row size and fail the insert.
 */
function boundedKey(intent: Intent): Intent {
  if (intent.kind === 'resolve') return { ...intent, key: intent.key.slice(0, MAX_DEDUPLICATION_KEY) };
  const key = intent.alert.deduplication_key;
  return key === null ? intent : { ...intent, alert: { ...intent.alert, deduplication_key: key.slice(0, MAX_DEDUPLICATION_KEY) } };
}
