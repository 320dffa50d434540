import { z } from 'zod';
import { ALERT_ATTRIBUTES, OPERATORS, type Condition, type ConditionKind, type Operator } from './condition.types.js';
import { jsonPathIssue, MAX_JSON_PATH_LENGTH } from './json-path.js';
import { regexIssue } from './safe-regex.js';
import { operatorsFor, type Vocabulary } from './vocabulary.js';

/**
 * Write-time checks of conditions. Each problem names the condition's field (and the
 * item of a list), so a resource's zod schema reports it as a 422 whose
 * `source.pointer` is `/data/attributes/conditions/<i>/<field>[/<j>]`.
 */

/** One thing wrong with a condition, located at one of its fields. */
export interface ConditionProblem {
  field: 'kind' | 'operator' | 'record_ids' | 'values' | 'property_field_name';
  /** The item of `values` or `record_ids` at fault. */
  index?: number;
  message: string;
}

/** Most values and record ids one condition lists. */
export const MAX_CONDITION_VALUES = 50;
/** Most conditions one rule or group holds. */
export const MAX_CONDITIONS = 50;
/** Longest value (a pattern: see safe-regex.ts, shorter still). */
export const MAX_VALUE_LENGTH = 1_000;
/** Most matches_regex patterns among one rule's or group's conditions: each costs a compile on write. */
export const MAX_PATTERNS = 20;
/**
 * Most characters of values and property names among one rule's or group's conditions.
 * Evaluation loads every rule (or group) of a team: without it, 200 rules of 1 MB each
 * (20 × 50 values of 1 000 characters) made each evaluate read 200 MB.
 */
export const MAX_CONDITION_CHARS = 32_768;

const RECORD_KINDS: readonly ConditionKind[] = ['urgency', 'source', 'service', 'group'];
const MEMBERSHIP: readonly Operator[] = ['is_one_of', 'is_not_one_of'];
const OPERANDLESS: readonly Operator[] = ['is_set', 'is_not_set', 'is_empty', 'matches_existing_alert'];

const filled = (list: readonly unknown[] | null | undefined) => (list?.length ?? 0) > 0;

function recordKindProblems(c: Condition): ConditionProblem[] {
  const out: ConditionProblem[] = [];
  if (c.property_field_name)
    out.push({ field: 'property_field_name', message: `is not used by ${c.kind} conditions (only by alert_field and payload)` });
  if (c.kind !== 'source' && filled(c.values))
    out.push({ field: 'values', message: `is not used by ${c.kind} conditions; list the records in record_ids` });
  if (MEMBERSHIP.includes(c.operator)) {
    const wanted = c.kind === 'source' ? filled(c.record_ids) || filled(c.values) : filled(c.record_ids);
    const what = c.kind === 'source' ? 'alert source ids (or, in values, source aliases)' : `${c.kind} ids`;
    if (!wanted) out.push({ field: 'record_ids', message: `${c.operator} needs at least one of the ${what}` });
  }
  return out;
}

function propertyKindProblems(c: Condition): ConditionProblem[] {
  const out: ConditionProblem[] = [];
  if (filled(c.record_ids))
    out.push({ field: 'record_ids', message: `is not used by ${c.kind} conditions (only by urgency, source, service and group)` });
  const name = c.property_field_name ?? '';
  if (name === '') out.push({ field: 'property_field_name', message: `is required for ${c.kind} conditions` });
  else if (name.length > MAX_JSON_PATH_LENGTH)
    out.push({ field: 'property_field_name', message: `is longer than ${MAX_JSON_PATH_LENGTH} characters` });
  else if (c.kind === 'payload') {
    const issue = jsonPathIssue(name);
    if (issue) out.push({ field: 'property_field_name', message: issue });
  } else if (c.kind === 'attribute' && !(ALERT_ATTRIBUTES as readonly string[]).includes(name)) {
    out.push({ field: 'property_field_name', message: `must be one of ${ALERT_ATTRIBUTES.join(', ')}` });
  }
  if (!OPERANDLESS.includes(c.operator) && !filled(c.values))
    out.push({ field: 'values', message: `${c.operator} needs at least one value` });
  if (c.operator === 'matches_regex') {
    (c.values ?? []).forEach((pattern, index) => {
      // An over-long value is the schema's to report (its maxLength), once.
      const issue = pattern.length > MAX_VALUE_LENGTH ? null : regexIssue(pattern);
      if (issue) out.push({ field: 'values', index, message: issue });
    });
  }
  return out;
}

/** Everything wrong with `condition` in `vocabulary`; empty when it can be stored. */
export function conditionProblems(condition: Condition, vocabulary: Vocabulary): ConditionProblem[] {
  const allowed = operatorsFor(vocabulary, condition.kind);
  if (!allowed.length) return [{ field: 'kind', message: `must be one of ${Object.keys(vocabulary.kinds).join(', ')}` }];
  if (!allowed.includes(condition.operator))
    return [{ field: 'operator', message: `${condition.kind} conditions take only ${allowed.join(', ')}` }];
  const out: ConditionProblem[] = [];
  if (OPERANDLESS.includes(condition.operator)) {
    for (const field of ['record_ids', 'values'] as const) {
      if (filled(condition[field])) out.push({ field, message: `is not used with ${condition.operator}` });
    }
  }
  out.push(...(RECORD_KINDS.includes(condition.kind) ? recordKindProblems(condition) : propertyKindProblems(condition)));
  // One message per field is enough (an operand-less operator's list is reported once).
  return out.filter((p, i) => out.findIndex((q) => q.field === p.field && q.index === p.index) === i);
}

/** The stored shape: lists always present, record ids in lower case, so equal conditions compare equal. */
function normalized(
  c: z.infer<ReturnType<typeof conditionInput>>,
): Condition & { record_ids: string[]; values: string[]; property_field_name: string | null } {
  return {
    ...(c.id === undefined ? {} : { id: c.id.toLowerCase() }),
    kind: c.kind,
    operator: c.operator,
    record_ids: (c.record_ids ?? []).map((id) => id.toLowerCase()),
    values: c.values ?? [],
    property_field_name: c.property_field_name ?? null,
  };
}

function conditionInput(vocabulary: Vocabulary) {
  const kinds = Object.keys(vocabulary.kinds) as [ConditionKind, ...ConditionKind[]];
  const operators = OPERATORS.filter((o) => kinds.some((k) => operatorsFor(vocabulary, k).includes(o))) as [Operator, ...Operator[]];
  return z.strictObject({
    /** Sent back from a read, an id keeps its row; otherwise it is response only. */
    id: z.uuid().optional(),
    kind: z.enum(kinds),
    operator: z.enum(operators),
    record_ids: z.array(z.uuid()).max(MAX_CONDITION_VALUES).nullable().optional(),
    values: z.array(z.string().min(1).max(MAX_VALUE_LENGTH)).max(MAX_CONDITION_VALUES).nullable().optional(),
    // Its length is checked with the rest of it (conditionProblems), so it is reported once.
    property_field_name: z.string().nullable().optional(),
  });
}

/** A zod schema of one condition of `vocabulary`, normalised (see `normalized`). */
export function conditionSchema(vocabulary: Vocabulary) {
  return conditionInput(vocabulary)
    .superRefine((condition, ctx) => {
      for (const p of conditionProblems(condition, vocabulary)) {
        ctx.addIssue({ code: 'custom', path: p.index === undefined ? [p.field] : [p.field, p.index], message: p.message });
      }
    })
    .transform(normalized);
}

/** How many matches_regex patterns `conditions` hold together. */
export function patternCount(conditions: readonly Pick<Condition, 'operator' | 'values'>[]): number {
  return conditions.reduce((n, c) => n + (c.operator === 'matches_regex' ? (c.values?.length ?? 0) : 0), 0);
}

/**
 * Flags each condition whose `id` an earlier one of the list already sent: the
 * children writer keeps one row per id, so a repeated id would silently drop a
 * condition. Reads the entries defensively: zod runs list checks even when an entry
 * failed its own.
 */
export function refineUniqueIds(conditions: readonly unknown[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  conditions.forEach((c, j) => {
    const id = (c as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    const first = seen.get(id.toLowerCase());
    if (first === undefined) seen.set(id.toLowerCase(), j);
    else
      ctx.addIssue({ code: 'custom', path: [j, 'id'], message: `is the id of condition ${first} too; a condition's id may appear once` });
  });
}

/** How many characters of values and property names `conditions` hold together (entries read defensively). */
export function conditionChars(conditions: readonly Pick<Condition, 'values' | 'property_field_name'>[]): number {
  return conditions.reduce(
    (n, c) =>
      n +
      (Array.isArray(c?.values) ? c.values.reduce((m, v) => m + (typeof v === 'string' ? v.length : 0), 0) : 0) +
      (typeof c?.property_field_name === 'string' ? c.property_field_name.length : 0),
    0,
  );
}

/** A zod schema of a rule's or group's whole condition list. */
export function conditionsSchema(vocabulary: Vocabulary) {
  return z
    .array(conditionSchema(vocabulary))
    .max(MAX_CONDITIONS)
    .refine((cs) => patternCount(cs) <= MAX_PATTERNS, `hold at most ${MAX_PATTERNS} matches_regex patterns together`)
    .refine(
      (cs) => conditionChars(cs) <= MAX_CONDITION_CHARS,
      `hold at most ${MAX_CONDITION_CHARS} characters of values and property names together`,
    )
    .superRefine(refineUniqueIds);
}
