import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { MAX_CONDITION_CHARS, MAX_CONDITIONS, MAX_PATTERNS } from '../matching/index.js';
import { unknownUrgencies } from './alerts.shared.js';
import {
  CONDITION_COLUMNS,
  groupConditionChars,
  groupConditionsSchema,
  groupPatternCount,
  presentCondition,
  type StoredGroupCondition,
} from './alert-groups.conditions.js';
import { alertGroupEvaluateAction } from './alert-group-evaluate.action.js';
import { targetsInput, typedTargets } from './alert-group-targets.js';
import { applyLegacy, legacyInput, legacyOf, type LegacyAttributes } from './alert-groups.legacy.js';
import { alertGroupSchemas, MAX_ALERT_GROUPS, MAX_TIME_WINDOW_MINUTES } from './alert-groups.schemas.js';

/** The include names of the records a target names, one per target type. */
const TARGET_INCLUDES = ['groups', 'services', 'escalation_policies', 'functionalities'];
/** The row member (not a column) holding the urgency ids of a group's conditions, for the include. */
const URGENCY_IDS = 'condition_urgency_ids';

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  /** Minutes the group stays open to new alerts. */
  time_window: z.number().int().min(1).max(MAX_TIME_WINDOW_MINUTES),
  condition_type: z.enum(['all', 'any']),
  targets: targetsInput,
  conditions: groupConditionsSchema,
  ...legacyInput,
};

/** A stored condition row as the children writer takes it back: its id (kept) and its columns. */
const asEntry = (row: Row) =>
  ({ id: String(row.id), ...Object.fromEntries(CONDITION_COLUMNS.map((c) => [c, row[c] ?? null])) }) as StoredGroupCondition;

/**
 * The legacy attributes, taken out and applied to the conditions (alert-groups.legacy.ts):
 * to those sent, else to the stored ones (an update), else to none (a create).
 */
function mappingLegacy(attributes: Row, existing: Row | undefined): Row {
  const { group_by_alert_title, group_by_alert_urgency, attributes: paths, ...rest } = attributes;
  const legacy = { group_by_alert_title, group_by_alert_urgency, attributes: paths } as LegacyAttributes;
  if (Object.values(legacy).every((v) => v === undefined)) return attributes;
  const current =
    (rest.conditions as StoredGroupCondition[] | undefined) ?? ((existing?.conditions as Row[] | undefined) ?? []).map(asEntry);
  return { ...rest, conditions: applyLegacy(current, legacy) };
}

/**
 * Alert groups (docs/on-call.md): which alerts are gathered into one group while
 * it is open (`time_window` minutes). Conditions are child rows with stable ids; the
 * legacy grouping attributes are conditions too. `{id}` is the UUID or the slug.
 * The list is the reference's unpaged one, so a team holds at most MAX_ALERT_GROUPS
 * groups and one page shows them all.
 */
export const alertGroups = defineResource<OnCallResourceDeps>({
  type: 'alert_groups',
  path: '/v1/alert_groups',
  table: 'alert_groups',
  event: 'alert_group',
  permission: { scope: 'oc.alerts', side: 'oc' },
  summary: { singular: 'alert group', plural: 'alert groups' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'description',
    'slug',
    'condition_type',
    'time_window',
    'group_by_alert_title',
    'group_by_alert_urgency',
    'targets',
    'attributes',
    'conditions',
    'deleted_at',
  ],
  attributeSchemas: alertGroupSchemas,
  jsonColumns: ['targets'],
  computed: {
    group_by_alert_title: (row) => legacyOf(row.conditions).group_by_alert_title,
    group_by_alert_urgency: (row) => legacyOf(row.conditions).group_by_alert_urgency,
    attributes: (row) => legacyOf(row.conditions).attributes,
    // Deleted groups are gone; the reference requires the attribute.
    deleted_at: () => null,
  },
  children: {
    conditions: {
      table: 'alert_group_conditions',
      key: 'alert_group_id',
      mode: 'replace',
      columns: CONDITION_COLUMNS,
      jsonColumns: ['property_field_values', 'alert_urgency_ids'],
      present: presentCondition,
    },
  },
  // include=alert_urgencies: the urgencies the conditions name, read as GET /v1/alert_urgencies reads them.
  relationships: { alert_urgencies: { type: 'alert_urgencies', column: URGENCY_IDS, many: true, resource: 'alert_urgencies' } },
  // The reference names no include values; these are the records targets name, none served by on-call (docs/decisions.md, Defaults).
  includes: Object.fromEntries(TARGET_INCLUDES.map((name) => [name, async () => []])),
  slug: { from: 'name' },
  filters: { slug: 'string', name: 'string' },
  sorts: ['name', 'slug', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  page: { defaultSize: MAX_ALERT_GROUPS, maxSize: MAX_ALERT_GROUPS },
  limit: { max: MAX_ALERT_GROUPS, detail: 'A team has at most {max} alert groups.' },
  updateMethods: ['patch'],
  unique: {
    alert_groups_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'An alert group with this name already exists.' },
  },
  actions: [alertGroupEvaluateAction],
  hooks: {
    expand: async (rows) => {
      for (const row of rows)
        row[URGENCY_IDS] = [
          ...new Set(((row.conditions as Row[] | undefined) ?? []).flatMap((c) => (c.alert_urgency_ids as string[] | null) ?? [])),
        ];
    },
    // Targets sent by id alone get their type here, before the write's other checks (alert-group-targets.ts).
    prepare: (attributes, ctx) => typedTargets(mappingLegacy(attributes, ctx.existing), ctx),
    defaults: (attributes) => ({ condition_type: 'all', time_window: 60, targets: [], description: null, conditions: [], ...attributes }),
    async validate(attributes, ctx) {
      const conditions = (attributes.conditions as StoredGroupCondition[] | undefined) ?? [];
      // The legacy attributes add conditions after the schema counted them (prepare): count again.
      const issues: ValidationIssue[] = [];
      if (conditions.length > MAX_CONDITIONS) {
        issues.push({
          pointer: '/data/attributes/conditions',
          code: 'too_many',
          detail: `An alert group holds at most ${MAX_CONDITIONS} conditions, legacy attributes included; this one would hold ${conditions.length}.`,
        });
      }
      if (groupPatternCount(conditions) > MAX_PATTERNS) {
        issues.push({
          pointer: '/data/attributes/conditions',
          code: 'too_many',
          detail: `An alert group holds at most ${MAX_PATTERNS} matches_regex patterns.`,
        });
      }
      if (groupConditionChars(conditions) > MAX_CONDITION_CHARS) {
        issues.push({
          pointer: '/data/attributes/conditions',
          code: 'too_many',
          detail: `An alert group's conditions hold at most ${MAX_CONDITION_CHARS} characters of values and property names, legacy attributes included.`,
        });
      }
      return [
        ...issues,
        ...(await unknownUrgencies(
          ctx,
          conditions.map((c) => ({ field: 'alert_urgency_ids', ids: c.alert_urgency_ids ?? [] })),
        )),
      ];
    },
  },
});
