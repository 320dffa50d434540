import type { Row } from '@firewatch/resource-kit';
import type { AlertInput } from '../matching/index.js';

const ids = (value: unknown) => ((value as string[] | null) ?? []).map((id) => id.toLowerCase());

/**
 * A stored alert's columns as the matching engine reads an alert (the evaluate endpoints'
 * `alert`): grouping, re-trigger rules, routing and escalation path rules all judge this one
 * shape, so a condition means the same wherever it is written.
 */
export function alertInputOf(columns: Row): AlertInput {
  return {
    summary: (columns.summary as string | null) ?? null,
    description: (columns.description as string | null) ?? null,
    external_url: (columns.external_url as string | null) ?? null,
    urgency_id: (columns.alert_urgency_id as string | null) ?? null,
    source_id: (columns.alert_source_id as string | null) ?? null,
    source: (columns.source as string | null) ?? null,
    service_ids: ids(columns.service_ids),
    group_ids: ids(columns.group_ids),
    payload: columns.data ?? undefined,
  };
}
