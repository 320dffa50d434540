import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  groupConditionChars,
  groupConditionInput,
  groupConditionProblems,
  groupPatternCount,
  PROPERTY_FIELD_TYPES,
  ROUTING_CONDITION_TYPES,
  stored,
  type StoredGroupCondition,
} from '../alerts/alert-groups.conditions.js';
import {
  EVALUATION_BUDGET_NS,
  MAX_CONDITION_CHARS,
  MAX_CONDITIONS,
  MAX_CONDITION_VALUES,
  MAX_JSON_PATH_LENGTH,
  MAX_PATTERNS,
  MAX_VALUE_LENGTH,
  patternCompileCost,
  ROUTING_VOCABULARY,
} from '../matching/index.js';

/**
 * Routing's conditions as the reference writes them (property_field_type,
 * property_field_condition_type, ...), the alert groups' shape: mapped onto the one
 * matching engine (alerts/alert-groups.conditions.ts), judged in ROUTING_VOCABULARY.
 */

/** The reference's property_field_condition_type of routes and routing rules: defined beside the groups' list, which is it and one more. */
export { ROUTING_CONDITION_TYPES };

/** The attribute names a condition may look at (`alert_urgency` compares urgency ids). */
export const ROUTING_ATTRIBUTES = ['summary', 'description', 'alert_urgency', 'external_url'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Issue = { path: (string | number)[]; message: string };

/** An alert route's condition: an alert group's, with the reference's required type and operator, `_destroy` dropping it. */
export const routeConditionInput = groupConditionInput.extend({
  property_field_type: z.enum(PROPERTY_FIELD_TYPES),
  property_field_condition_type: z.enum(ROUTING_CONDITION_TYPES),
  _destroy: z.boolean().optional(),
});

/** A stored route condition: the alert groups' columns, with its id. */
export type RouteCondition = StoredGroupCondition & { id: string };

/** A route condition checked by the engine's rules, in the stored shape (a new one gets an id). */
export const routeConditionSchema = routeConditionInput
  .transform(({ _destroy, ...c }) => ({ ...stored(c), id: (c.id ?? randomUUID()).toLowerCase() }) as RouteCondition)
  .superRefine((c, ctx) => {
    for (const p of groupConditionProblems(c, ROUTING_VOCABULARY)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });

/**
 * Most of one alert's routing budget (matching/evaluation-budget.ts) that compiling one
 * route's, or one legacy rule's, patterns may take: the rest is for running them on the
 * alert. Past it, every alert of the source would exhaust the budget before the later
 * rules are judged, and go to the fallback (or nowhere) whatever it holds.
 */
export const MAX_COMPILE_NS = EVALUATION_BUDGET_NS / 2;

/** The matches_regex patterns of `conditions`, whatever shape they came in (zod runs list checks even when an entry failed its own). */
function patternsOf(conditions: readonly unknown[]): string[] {
  return conditions.flatMap((entry) => {
    const c = (entry ?? {}) as Partial<StoredGroupCondition>;
    if (c.property_field_condition_type !== 'matches_regex') return [];
    const values = [...(Array.isArray(c.property_field_values) ? c.property_field_values : []), c.property_field_value];
    return values.filter((v): v is string => typeof v === 'string' && v !== '');
  });
}

/** Why compiling the distinct matches_regex patterns of `conditions` costs too much, or null. */
export function compileCostIssue(conditions: readonly unknown[]): string | null {
  const patterns = new Set(patternsOf(conditions));
  const ns = [...patterns].reduce((sum, p) => sum + patternCompileCost(p), 0);
  const ms = (n: number) => Math.round(n / 1e6);
  return ns > MAX_COMPILE_NS
    ? `compile its matches_regex patterns in about ${ms(ns)} ms together, at most ${ms(MAX_COMPILE_NS)} of the ${ms(EVALUATION_BUDGET_NS)} ms an alert's routing may spend (use fewer, shorter or simpler patterns)`
    : null;
}

/** Everything a rule's conditions hold together beyond what one condition may: patterns and characters. */
export function conditionSetIssues(conditions: readonly unknown[]): string[] {
  const out: string[] = [];
  if (groupPatternCount(conditions) > MAX_PATTERNS) out.push(`hold at most ${MAX_PATTERNS} matches_regex patterns together`);
  if (groupConditionChars(conditions) > MAX_CONDITION_CHARS)
    out.push(`hold at most ${MAX_CONDITION_CHARS} characters of values and property names together`);
  return out;
}

const text = z.string().max(MAX_VALUE_LENGTH);

/**
 * A legacy alert routing rule's condition (the reference's new_alert_routing_rule):
 * attribute or payload; `alert_urgency` lists urgency ids in property_field_values.
 */
export const legacyConditionInput = z.strictObject({
  id: z.uuid().optional(),
  property_field_type: z.enum(['attribute', 'payload']),
  property_field_name: z.string().min(1).max(MAX_JSON_PATH_LENGTH),
  property_field_condition_type: z.enum(ROUTING_CONDITION_TYPES),
  property_field_value: text.nullable().optional(),
  property_field_values: z.array(text.min(1)).max(MAX_CONDITION_VALUES).nullable().optional(),
});

/** A legacy condition as stored: every column present. */
export interface LegacyCondition {
  id?: string;
  property_field_type: 'attribute' | 'payload';
  property_field_name: string;
  property_field_condition_type: (typeof ROUTING_CONDITION_TYPES)[number];
  property_field_value: string | null;
  property_field_values: string[];
}

export const LEGACY_CONDITION_COLUMNS = [
  'property_field_type',
  'property_field_name',
  'property_field_condition_type',
  'property_field_value',
  'property_field_values',
] as const;

const isUrgency = (c: Pick<LegacyCondition, 'property_field_type' | 'property_field_name'>) =>
  c.property_field_type === 'attribute' && c.property_field_name === 'alert_urgency';

/** A legacy condition in the alert groups' shape: an `alert_urgency` condition's values are its urgency ids. */
export function legacyAsGroupCondition(c: LegacyCondition): StoredGroupCondition {
  const urgency = isUrgency(c);
  return {
    ...(c.id ? { id: c.id } : {}),
    property_field_type: c.property_field_type,
    property_field_condition_type: c.property_field_condition_type,
    property_field_name: c.property_field_name,
    property_field_value: urgency ? null : c.property_field_value,
    property_field_values: urgency ? [] : c.property_field_values,
    alert_urgency_ids: urgency ? c.property_field_values.map((id) => id.toLowerCase()) : null,
    conditionable_type: null,
    conditionable_id: null,
  };
}

/** Where an engine problem of a legacy condition lies: urgency ids are its property_field_values. */
function legacyPath(path: Issue['path']): Issue['path'] {
  return path[0] === 'alert_urgency_ids' ? ['property_field_values', ...path.slice(1)] : path;
}

function legacyProblems(c: LegacyCondition): Issue[] {
  const problems = groupConditionProblems(legacyAsGroupCondition(c), ROUTING_VOCABULARY).map((p) => ({ ...p, path: legacyPath(p.path) }));
  if (isUrgency(c)) {
    c.property_field_values.forEach((id, i) => {
      if (!UUID.test(id)) problems.push({ path: ['property_field_values', i], message: 'is not an alert urgency id (a UUID)' });
    });
  } else if (c.property_field_type === 'attribute' && !(ROUTING_ATTRIBUTES as readonly string[]).includes(c.property_field_name)) {
    return [{ path: ['property_field_name'], message: `must be one of ${ROUTING_ATTRIBUTES.join(', ')}` }];
  }
  return problems;
}

/** A legacy rule's condition list, checked and stored-shaped. */
export const legacyConditionsSchema = z
  .array(
    legacyConditionInput
      .transform((c): LegacyCondition => ({
        ...(c.id ? { id: c.id.toLowerCase() } : {}),
        property_field_type: c.property_field_type,
        property_field_name: c.property_field_name,
        property_field_condition_type: c.property_field_condition_type,
        property_field_value: c.property_field_value ?? null,
        // Urgency ids are stored lower-cased, as every record id is, so a delete of the urgency finds them.
        property_field_values: (c.property_field_values ?? []).map((v) => (isUrgency(c) ? v.toLowerCase() : v)),
      }))
      .superRefine((c, ctx) => {
        for (const p of legacyProblems(c)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
      }),
  )
  .max(MAX_CONDITIONS)
  .superRefine((cs, ctx) => {
    for (const message of conditionSetIssues(cs)) ctx.addIssue({ code: 'custom', message });
    const costly = compileCostIssue(cs);
    if (costly) ctx.addIssue({ code: 'custom', message: costly });
  });
