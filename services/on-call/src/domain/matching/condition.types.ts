/**
 * The vocabulary of alert conditions shared by re-trigger rules and alert groups
 * (docs/on-call.md): what a condition looks at (its kind), how it compares (its operator)
 * and what an alert offers to compare.
 */

/** What a condition looks at. `attribute` (summary, description, external_url) is alert groups' only. */
export const CONDITION_KINDS = ['urgency', 'source', 'service', 'group', 'alert_field', 'payload', 'attribute'] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

/**
 * Every operator the engine knows: the re-trigger rules' nine (with is_set / is_not_set)
 * and the alert groups' is_empty and matches_existing_alert (docs/on-call.md).
 */
export const OPERATORS = [
  'is_one_of',
  'is_not_one_of',
  'is_set',
  'is_not_set',
  'is_empty',
  'contains',
  'does_not_contain',
  'starts_with',
  'ends_with',
  'matches_regex',
  'matches_existing_alert',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators that compare text; the native kinds (records by id) never take them. */
export const TEXT_OPERATORS = [
  'contains',
  'does_not_contain',
  'starts_with',
  'ends_with',
  'matches_regex',
] as const satisfies readonly Operator[];

/** The attributes of an alert an `attribute` condition may name. */
export const ALERT_ATTRIBUTES = ['summary', 'description', 'external_url'] as const;
export type AlertAttribute = (typeof ALERT_ATTRIBUTES)[number];

/** A condition as stored and evaluated (the re-trigger rules' wire shape). */
export interface Condition {
  /** The stored condition's id; absent for conditions not yet saved. */
  id?: string;
  kind: ConditionKind;
  operator: Operator;
  /** urgency, source, service, group: ids of the matched records. */
  record_ids?: readonly string[] | null;
  /** source: aliases of non-integration sources; alert_field, payload, attribute: values to compare against. */
  values?: readonly string[] | null;
  /** alert_field: the alert field id; payload: a JSON Path; attribute: one of ALERT_ATTRIBUTES. */
  property_field_name?: string | null;
}

/** `all`: every condition must hold; `any`: one is enough. Empty conditions always hold. */
export type MatchMode = 'all' | 'any';

/** An alert as the engine sees it; every member is optional, a missing one is "not set". */
export interface AlertInput {
  summary?: string | null;
  description?: string | null;
  external_url?: string | null;
  urgency_id?: string | null;
  /** The integration alert source, by id. */
  source_id?: string | null;
  /** A non-integration source by alias (manual, api, ...). */
  source?: string | null;
  service_ids?: readonly string[] | null;
  group_ids?: readonly string[] | null;
  /** Alert field values by alert field id. */
  fields?: Readonly<Record<string, string | null>> | null;
  /** The JSON payload the alert arrived with. */
  payload?: unknown;
}

/** Alerts already in a group, for `matches_existing_alert`. */
export interface MatchContext {
  existing_alerts?: readonly AlertInput[];
}

/** Why one condition held or not. */
export interface ConditionExplanation {
  id: string | null;
  /** The condition's place in its list, for conditions without an id. */
  index: number;
  kind: ConditionKind;
  operator: Operator;
  property_field_name: string | null;
  matched: boolean;
  /** A sentence for an operator testing rules: what the alert had and what was asked. */
  reason: string;
}

/** The outcome of one condition set. */
export interface ConditionSetResult {
  matched: boolean;
  conditions: ConditionExplanation[];
}

/**
 * What an alert offers a condition to compare: its values as text. Record ids
 * (urgency, source, service, group) are compared case-insensitively as UUIDs are; text
 * as it is.
 */
export interface Observed {
  /** The alert's values as text (empty when it has none, or only values that are not text). */
  texts: readonly string[];
  /** source only: the non-integration alias, compared against `values` (ids go in `texts`). */
  alias?: string;
  /** Whether the alert has the property at all (a payload object counts, though it has no text). */
  set: boolean;
}
