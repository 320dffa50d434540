import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ownerGroupIds, ownerGroupIssues } from '../targets/group-references.js';
import { destinationInput, MAX_RULE_POSITION, type Destination } from './alert-routes.schemas.js';
import { destinationIssues, sourceIssues, urgencyIssues } from './routing-references.js';
import { LEGACY_CONDITION_COLUMNS, legacyConditionsSchema, ROUTING_CONDITION_TYPES, type LegacyCondition } from './routing.conditions.js';

/** Most legacy alert routing rules per team: routing reads a source's rules in one go. */
export const MAX_ALERT_ROUTING_RULES = 200;

const writable = {
  name: z.string().trim().min(1).max(255),
  enabled: z.boolean(),
  alerts_source_id: z.uuid().transform((id) => id.toLowerCase()),
  position: z.number().int().min(0).max(MAX_RULE_POSITION),
  condition_type: z.enum(['all', 'any']),
  conditions: legacyConditionsSchema,
  destination: destinationInput,
  owning_team_ids: ownerGroupIds,
};

const conditionSchema = {
  type: 'object',
  required: ['id', 'property_field_type', 'property_field_name', 'property_field_condition_type', 'property_field_values'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    property_field_type: { type: 'string', enum: ['attribute', 'payload'] },
    property_field_name: { type: 'string' },
    property_field_condition_type: { type: 'string', enum: [...ROUTING_CONDITION_TYPES] },
    property_field_value: { type: 'string', nullable: true },
    property_field_values: { type: 'array', items: { type: 'string' } },
  },
};

/**
 * The legacy alert routing rules (issue 24; docs/paging.md, "Alert routing"): one
 * source's rules, tried by position after every alert route of the source, each with its
 * conditions (all or any, `condition_type`; none: every alert) and one destination.
 * Conditions are child rows; a PUT's `conditions` is the whole set, an unchanged
 * condition keeping its id.
 */
export const alertRoutingRules = defineResource<OnCallResourceDeps>({
  type: 'alert_routing_rules',
  path: '/v1/alert_routing_rules',
  table: 'alert_routing_rules',
  event: 'alert_routing_rule',
  permission: { scope: 'oc.alert_routing_rules', side: 'oc' },
  summary: { singular: 'alert routing rule', plural: 'alert routing rules' },
  description:
    'The legacy routing of one source: tried by position after every alert route of the source, each rule matching when all (or any, condition_type) of its conditions hold (docs/paging.md, Alert routing).',
  create: z.strictObject(writable).partial().required({ name: true, alerts_source_id: true, destination: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'enabled', 'alerts_source_id', 'position', 'condition_type', 'conditions', 'destination', 'owning_team_ids'],
  attributeSchemas: { slug: { type: 'string' }, conditions: { type: 'array', items: conditionSchema } },
  jsonColumns: ['destination', 'owning_team_ids'],
  ownerGroups: { column: 'owning_team_ids' },
  children: {
    conditions: {
      table: 'alert_routing_rule_conditions',
      key: 'alert_routing_rule_id',
      mode: 'replace',
      columns: LEGACY_CONDITION_COLUMNS,
      jsonColumns: ['property_field_values'],
      present: (row: Row) => ({ id: String(row.id), ...Object.fromEntries(LEGACY_CONDITION_COLUMNS.map((c) => [c, row[c] ?? null])) }),
    },
  },
  slug: { from: 'name' },
  filters: { search: { kind: 'search', columns: ['name'] }, name: 'string', slug: 'string', created_at: 'date' },
  sorts: ['name', 'slug', 'position', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  // A rule created without a position is tried after its source's others.
  position: { per: 'alerts_source_id', max: MAX_RULE_POSITION },
  limit: { max: MAX_ALERT_ROUTING_RULES, detail: 'A team has at most {max} alert routing rules.' },
  updateMethods: ['put'],
  hooks: {
    defaults: (attributes) => ({ enabled: true, condition_type: 'all', conditions: [], owning_team_ids: [], ...attributes }),
    async validate(attributes, ctx) {
      const source = attributes.alerts_source_id as string | undefined;
      const destination = attributes.destination as Destination | undefined;
      const conditions = (attributes.conditions as LegacyCondition[] | undefined) ?? [];
      const urgencies = conditions.flatMap((c, i) =>
        c.property_field_type === 'attribute' && c.property_field_name === 'alert_urgency'
          ? c.property_field_values.map((id, j) => ({
              pointer: `/data/attributes/conditions/${i}/property_field_values/${j}`,
              id: id.toLowerCase(),
            }))
          : [],
      );
      return [
        ...(await sourceIssues(
          ctx,
          source ? [{ pointer: '/data/attributes/alerts_source_id', id: source }] : [],
          new Set([ctx.existing?.alerts_source_id as string | undefined].filter((id): id is string => id !== undefined)),
        )),
        ...(await destinationIssues(
          ctx,
          destination ? [{ pointer: '/data/attributes/destination', destination }] : [],
          ctx.existing ? [ctx.existing.destination as Destination] : [],
        )),
        ...(await urgencyIssues(ctx, urgencies)),
        ...(await ownerGroupIssues(attributes, ctx, 'owning_team_ids')),
      ];
    },
  },
});
