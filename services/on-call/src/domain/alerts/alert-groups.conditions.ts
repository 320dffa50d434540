import { z } from 'zod';
import {
  conditionChars,
  conditionProblems,
  GROUP_VOCABULARY,
  MAX_CONDITION_CHARS,
  MAX_CONDITIONS,
  MAX_CONDITION_VALUES,
  MAX_JSON_PATH_LENGTH,
  MAX_PATTERNS,
  MAX_VALUE_LENGTH,
  patternCount,
  refineUniqueIds,
  type Condition,
  type ConditionProblem,
  type Vocabulary,
} from '../matching/index.js';

/**
 * An alert group's conditions as the reference writes them (property_field_type,
 * property_field_condition_type, ...; docs/on-call.md), mapped onto the matching
 * engine's conditions, which judge and evaluate them: one vocabulary, one set of checks
 * for groups and re-trigger rules (matching/condition.schema.ts).
 */

export const PROPERTY_FIELD_TYPES = ['attribute', 'payload', 'alert_field'] as const;
/**
 * The reference's property_field_condition_type of alert routes and legacy routing rules:
 * what one alert's values are judged by. A group's are the same and matches_existing_alert,
 * which compares an alert with the group's others, so the reference's two enums are one list.
 */
export const ROUTING_CONDITION_TYPES = [
  'is_one_of',
  'is_not_one_of',
  'contains',
  'does_not_contain',
  'starts_with',
  'ends_with',
  'matches_regex',
  'is_empty',
] as const;
export const GROUP_CONDITION_TYPES = [...ROUTING_CONDITION_TYPES, 'matches_existing_alert'] as const;

const text = z.string().max(MAX_VALUE_LENGTH);

/**
 * One condition as written; `id` (from a read) keeps its row. The specification's
 * condition has no property_field_type nor property_field_condition_type, which the
 * reference requires: they default (`stored`; docs/decisions.md, Defaults).
 */
export const groupConditionInput = z.strictObject({
  id: z.uuid().optional(),
  property_field_type: z
    .enum(PROPERTY_FIELD_TYPES)
    .optional()
    .describe(
      'Default: `alert_field` when conditionable_type or conditionable_id is set, `payload` when property_field_name is a JSON path ($...), else `attribute`.',
    ),
  property_field_condition_type: z.enum(GROUP_CONDITION_TYPES).optional().describe('Default: `is_one_of`.'),
  property_field_name: z.string().max(MAX_JSON_PATH_LENGTH).nullable().optional(),
  property_field_value: text.nullable().optional(),
  property_field_values: z.array(text.min(1)).max(MAX_CONDITION_VALUES).nullable().optional(),
  alert_urgency_ids: z.array(z.uuid()).max(MAX_CONDITION_VALUES).nullable().optional(),
  conditionable_type: z.literal('AlertField').nullable().optional(),
  conditionable_id: z.string().min(1).max(255).nullable().optional(),
});
export type GroupConditionInput = z.infer<typeof groupConditionInput>;

/** A condition as stored: every column present, ids in lower case, so equal conditions compare equal (and keep their id). */
export interface StoredGroupCondition {
  id?: string;
  property_field_type: (typeof PROPERTY_FIELD_TYPES)[number];
  property_field_condition_type: (typeof GROUP_CONDITION_TYPES)[number];
  property_field_name: string | null;
  property_field_value: string | null;
  property_field_values: string[];
  alert_urgency_ids: string[] | null;
  conditionable_type: 'AlertField' | null;
  conditionable_id: string | null;
}

export const CONDITION_COLUMNS = [
  'property_field_type',
  'property_field_name',
  'property_field_condition_type',
  'property_field_value',
  'property_field_values',
  'alert_urgency_ids',
  'conditionable_type',
  'conditionable_id',
] as const;

/** The type a condition written without one has: what its other fields name. */
function impliedType(c: GroupConditionInput): StoredGroupCondition['property_field_type'] {
  if (c.conditionable_type || c.conditionable_id) return 'alert_field';
  return c.property_field_name?.startsWith('$') ? 'payload' : 'attribute';
}

export function stored(c: GroupConditionInput): StoredGroupCondition {
  const type = c.property_field_type ?? impliedType(c);
  const alertField = type === 'alert_field';
  return {
    ...(c.id === undefined ? {} : { id: c.id.toLowerCase() }),
    property_field_type: type,
    property_field_condition_type: c.property_field_condition_type ?? 'is_one_of',
    property_field_name: c.property_field_name ?? null,
    property_field_value: c.property_field_value ?? null,
    property_field_values: c.property_field_values ?? [],
    alert_urgency_ids: c.alert_urgency_ids?.length ? c.alert_urgency_ids.map((id) => id.toLowerCase()) : null,
    // The reference's one conditionable type: an alert_field condition names its field by it.
    conditionable_type: c.conditionable_type ?? (alertField ? 'AlertField' : null),
    conditionable_id: c.conditionable_id ?? null,
  };
}

/** The value list the engine compares: property_field_values, then property_field_value. */
function engineValues(c: StoredGroupCondition): string[] {
  return [...c.property_field_values, ...(c.property_field_value ? [c.property_field_value] : [])];
}

/** The engine's view of a group condition (the `alert_urgency` attribute is an urgency condition, matched by id). */
export function toEngineCondition(c: StoredGroupCondition): Condition {
  const base = {
    ...(c.id ? { id: c.id } : {}),
    operator: c.property_field_condition_type,
    values: engineValues(c),
    record_ids: c.alert_urgency_ids ?? [],
  };
  if (c.property_field_type === 'attribute' && c.property_field_name === 'alert_urgency')
    return { ...base, kind: 'urgency', property_field_name: null };
  if (c.property_field_type === 'alert_field')
    return { ...base, kind: 'alert_field', property_field_name: c.conditionable_id ?? c.property_field_name };
  return { ...base, kind: c.property_field_type, property_field_name: c.property_field_name };
}

/** Where an engine problem lies in the group condition as written. */
function pathOf(c: StoredGroupCondition, p: ConditionProblem): (string | number)[] {
  switch (p.field) {
    case 'kind':
      return ['property_field_type'];
    case 'operator':
      return ['property_field_condition_type'];
    case 'record_ids':
      return p.index === undefined ? ['alert_urgency_ids'] : ['alert_urgency_ids', p.index];
    case 'property_field_name':
      return c.property_field_type === 'alert_field' && c.property_field_name === null ? ['conditionable_id'] : ['property_field_name'];
    case 'values': {
      if (p.index === undefined)
        return c.property_field_values.length || !c.property_field_value ? ['property_field_values'] : ['property_field_value'];
      return p.index < c.property_field_values.length ? ['property_field_values', p.index] : ['property_field_value'];
    }
  }
}

/** Everything wrong with one group condition, each at its field (alert routes' conditions share the shape, in their vocabulary). */
export function groupConditionProblems(
  c: StoredGroupCondition,
  vocabulary: Vocabulary = GROUP_VOCABULARY,
): { path: (string | number)[]; message: string }[] {
  const problems = conditionProblems(toEngineCondition(c), vocabulary).map((p) => ({ path: pathOf(c, p), message: p.message }));
  if (c.conditionable_type !== null && c.property_field_type !== 'alert_field') {
    problems.push({ path: ['conditionable_type'], message: 'is used only by alert_field conditions' });
  }
  return problems;
}

/** An entry as patternCount and conditionChars read it (operator, values, names), whatever shape it came in. */
function asEngine(entry: unknown): Pick<Condition, 'operator' | 'values' | 'property_field_name'> {
  const c = (entry ?? {}) as Partial<StoredGroupCondition>;
  const values = [
    ...(Array.isArray(c.property_field_values) ? c.property_field_values : []),
    ...(c.property_field_value ? [c.property_field_value] : []),
  ];
  const names = [c.property_field_name, c.conditionable_id].filter((n): n is string => typeof n === 'string');
  return { operator: c.property_field_condition_type as Condition['operator'], values, property_field_name: names.join('') };
}

/** A zod schema of a group's condition list, checked and stored-shaped; its patterns bounded together, as re-trigger rules' are. */
export const groupConditionsSchema = z
  .array(
    groupConditionInput.transform(stored).superRefine((c, ctx) => {
      for (const p of groupConditionProblems(c)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
    }),
  )
  .max(MAX_CONDITIONS)
  // zod runs these even when an entry failed (and so was not transformed): read the entries defensively.
  .refine((cs) => groupPatternCount(cs) <= MAX_PATTERNS, `hold at most ${MAX_PATTERNS} matches_regex patterns together`)
  .refine(
    (cs) => groupConditionChars(cs) <= MAX_CONDITION_CHARS,
    `hold at most ${MAX_CONDITION_CHARS} characters of values and property names together`,
  )
  .superRefine(refineUniqueIds);

/** How many matches_regex patterns a group's conditions hold, whatever shape they came in. */
export function groupPatternCount(conditions: readonly unknown[]): number {
  return patternCount(conditions.map(asEngine));
}

/** How many characters of values and names a group's conditions hold, whatever shape they came in. */
export function groupConditionChars(conditions: readonly unknown[]): number {
  return conditionChars(conditions.map(asEngine));
}

/** One condition as responses show it: the reference's `values` lists the urgencies as records. */
export function presentCondition(row: Record<string, unknown>): Record<string, unknown> {
  const urgencies = (row.alert_urgency_ids as string[] | null) ?? null;
  return {
    id: String(row.id),
    ...Object.fromEntries(CONDITION_COLUMNS.map((c) => [c, row[c] ?? null])),
    property_field_values: (row.property_field_values as string[] | null) ?? [],
    values: (urgencies ?? []).map((record_id) => ({ record_id, record_type: 'AlertUrgency' })),
  };
}
