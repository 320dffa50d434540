import { TEXT_OPERATORS, type ConditionKind, type Operator } from './condition.types.js';

/** Which kinds a resource's conditions may have, and which operators each kind takes. */
export interface Vocabulary {
  kinds: Readonly<Partial<Record<ConditionKind, readonly Operator[]>>>;
}

const NATIVE = ['is_one_of', 'is_not_one_of', 'is_set', 'is_not_set'] as const satisfies readonly Operator[];

/**
 * Re-trigger rules (docs/on-call.md): the native operands match by record with the four
 * membership operators; alert_field and payload also take the text operators.
 */
export const RETRIGGER_VOCABULARY: Vocabulary = {
  kinds: {
    urgency: NATIVE,
    source: NATIVE,
    service: NATIVE,
    group: NATIVE,
    alert_field: [...NATIVE, ...TEXT_OPERATORS],
    payload: [...NATIVE, ...TEXT_OPERATORS],
  },
};

const GROUP_OPERATORS = [
  'is_one_of',
  'is_not_one_of',
  ...TEXT_OPERATORS,
  'is_empty',
  'matches_existing_alert',
] as const satisfies readonly Operator[];

/**
 * Alert groups (docs/on-call.md): property_field_condition_type's nine operators on
 * attribute, payload and alert_field properties; the `alert_urgency` attribute is an
 * urgency condition, matched by id.
 */
export const GROUP_VOCABULARY: Vocabulary = {
  kinds: {
    attribute: GROUP_OPERATORS,
    payload: GROUP_OPERATORS,
    alert_field: GROUP_OPERATORS,
    urgency: ['is_one_of', 'is_not_one_of', 'is_empty', 'matches_existing_alert'],
  },
};

/**
 * Alert routes and the legacy alert routing rules (docs/paging.md, "Alert routing"): the
 * reference's eight property_field_condition_type operators, alert groups' without
 * matches_existing_alert (a route looks at one alert, never at others).
 */
export const ROUTING_VOCABULARY: Vocabulary = {
  kinds: Object.fromEntries(
    Object.entries(GROUP_VOCABULARY.kinds).map(([kind, operators]) => [kind, operators.filter((o) => o !== 'matches_existing_alert')]),
  ),
};

/** The operators `kind` takes in `vocabulary` (none when the kind is not part of it). */
export function operatorsFor(vocabulary: Vocabulary, kind: ConditionKind): readonly Operator[] {
  return vocabulary.kinds[kind] ?? [];
}
