import { z } from 'zod';
import { jsonPathIssue } from '../matching/index.js';
import type { StoredGroupCondition } from './alert-groups.conditions.js';

/**
 * The reference's deprecated grouping attributes, kept for old clients and mapped onto
 * conditions, which alone are stored: `group_by_alert_title: 1` is the condition
 * "summary matches an existing alert's", `group_by_alert_urgency: 1` the same of the
 * urgency, and each `attributes[].json_path` the same of that payload value. Reading
 * them back reports whether those conditions are there.
 */

const superseded = { deprecated: true, description: 'Superseded by conditions (docs/api-contract.md §7).' };

export const legacyInput = {
  group_by_alert_title: z.union([z.literal(1), z.literal(0)]).meta(superseded),
  group_by_alert_urgency: z.union([z.literal(1), z.literal(0)]).meta(superseded),
  attributes: z
    .array(
      z.strictObject({
        json_path: z
          .string()
          .min(1)
          .superRefine((path, ctx) => {
            const issue = jsonPathIssue(path);
            if (issue) ctx.addIssue({ code: 'custom', message: issue });
          }),
      }),
    )
    .max(50)
    .meta(superseded),
};

export interface LegacyAttributes {
  group_by_alert_title?: 0 | 1;
  group_by_alert_urgency?: 0 | 1;
  attributes?: { json_path: string }[];
}

const sameAlert = (type: StoredGroupCondition['property_field_type'], name: string): StoredGroupCondition => ({
  property_field_type: type,
  property_field_condition_type: 'matches_existing_alert',
  property_field_name: name,
  property_field_value: null,
  property_field_values: [],
  alert_urgency_ids: null,
  conditionable_type: null,
  conditionable_id: null,
});

const isSameAlert = (
  c: Pick<StoredGroupCondition, 'property_field_type' | 'property_field_condition_type' | 'property_field_name'>,
  type: string,
  name?: string,
) =>
  c.property_field_type === type &&
  c.property_field_condition_type === 'matches_existing_alert' &&
  (name === undefined || c.property_field_name === name);

const TITLE = ['attribute', 'summary'] as const;
const URGENCY = ['attribute', 'alert_urgency'] as const;

/**
 * `conditions` with the legacy attributes sent applied: a flag of 1 adds its condition
 * unless there, 0 removes it; `attributes` becomes the whole set of payload
 * matches_existing_alert conditions. Attributes not sent leave their conditions alone.
 */
export function applyLegacy(conditions: readonly StoredGroupCondition[], legacy: LegacyAttributes): StoredGroupCondition[] {
  let out = [...conditions];
  const flag = (value: 0 | 1 | undefined, [type, name]: readonly [StoredGroupCondition['property_field_type'], string]) => {
    if (value === undefined) return;
    const present = out.some((c) => isSameAlert(c, type, name));
    if (value === 1 && !present) out.push(sameAlert(type, name));
    if (value === 0) out = out.filter((c) => !isSameAlert(c, type, name));
  };
  flag(legacy.group_by_alert_title, TITLE);
  flag(legacy.group_by_alert_urgency, URGENCY);
  if (legacy.attributes !== undefined) {
    const paths = [...new Set(legacy.attributes.map((a) => a.json_path))];
    out = out.filter((c) => !isSameAlert(c, 'payload') || paths.includes(String(c.property_field_name)));
    for (const path of paths) if (!out.some((c) => isSameAlert(c, 'payload', path))) out.push(sameAlert('payload', path));
  }
  return out;
}

type ConditionRow = Pick<StoredGroupCondition, 'property_field_type' | 'property_field_condition_type' | 'property_field_name'>;

/** The legacy attributes as responses report them, read off the stored conditions (rows, as loaded). */
export function legacyOf(rows: unknown) {
  const conditions = (Array.isArray(rows) ? rows : []) as ConditionRow[];
  return {
    group_by_alert_title: conditions.some((c) => isSameAlert(c, ...TITLE)),
    group_by_alert_urgency: conditions.some((c) => isSameAlert(c, ...URGENCY)),
    attributes: conditions.filter((c) => isSameAlert(c, 'payload')).map((c) => ({ json_path: String(c.property_field_name) })),
  };
}
