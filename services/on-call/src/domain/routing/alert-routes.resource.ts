import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ownerGroupIds, ownerGroupIssues } from '../targets/group-references.js';
import { alertRouteSchemas } from './alert-routes.openapi.js';
import { MAX_ALERT_ROUTES, rulesInput, type StoredRule } from './alert-routes.schemas.js';
import { destinationIssues, sourceIssues, urgencyIssues } from './routing-references.js';
import { ruleEntriesInput, rulesPointer, updatedRules } from './alert-routes.update.js';

const writable = {
  name: z.string().trim().min(1).max(255),
  enabled: z.boolean(),
  alerts_source_ids: z
    .array(z.uuid().transform((id) => id.toLowerCase()))
    .max(100)
    .transform((ids) => [...new Set(ids)]),
  owning_team_ids: ownerGroupIds,
  rules: rulesInput,
};

const RULE_COLUMNS = ['name', 'position', 'fallback_rule', 'destinations', 'condition_groups'] as const;

/** Every id the rules name, each with its pointer (where the write sent it: alert-routes.update.ts). */
function ruleReferences(rules: readonly StoredRule[]) {
  const at = rulesPointer(rules);
  return {
    destinations: rules.flatMap((r, i) => r.destinations.map((destination, j) => ({ pointer: at([i, 'destinations', j]), destination }))),
    urgencies: rules.flatMap((r, i) =>
      r.condition_groups.flatMap((g, j) =>
        g.conditions.flatMap((c, k) =>
          (c.alert_urgency_ids ?? []).map((id, m) => ({
            pointer: at([i, 'condition_groups', j, 'conditions', k, 'alert_urgency_ids', m]),
            id,
          })),
        ),
      ),
    ),
  };
}

/**
 * Alert routes (issue 24; docs/paging.md, "Alert routing"): for the alerts of the
 * sources it lists, a route's rules are tried by position, a rule matching when one of its
 * condition groups holds (every condition of the group), the fallback rule taking what
 * none does; the matching rule's destinations are where the alert is paged
 * (routing/alert-router.ts). Rules are child rows, each with its destinations and
 * condition groups; PUT and PATCH both take `rules` as the whole set.
 */
export const alertRoutes = defineResource<OnCallResourceDeps>({
  type: 'alert_routes',
  path: '/v1/alert_routes',
  table: 'alert_routes',
  event: 'alert_route',
  permission: { scope: 'oc.alert_routing_rules', side: 'oc' },
  summary: { singular: 'alert route', plural: 'alert routes' },
  description:
    "An alert from a listed source goes where the first matching rule sends it: enabled routes oldest first, each route's rules by position (a rule holds when one of its condition groups holds, every condition of it), the route's fallback rule when none does, then the source's legacy alert routing rules (docs/paging.md, Alert routing).",
  create: z.strictObject(writable).partial().required({ name: true, alerts_source_ids: true }),
  update: z.strictObject({ ...writable, rules: ruleEntriesInput }).partial(),
  attributes: ['name', 'slug', 'enabled', 'alerts_source_ids', 'owning_team_ids', 'rules'],
  attributeSchemas: alertRouteSchemas,
  jsonColumns: ['alerts_source_ids', 'owning_team_ids'],
  ownerGroups: { column: 'owning_team_ids' },
  children: {
    rules: {
      table: 'alert_route_rules',
      key: 'alert_route_id',
      mode: 'replace',
      columns: RULE_COLUMNS,
      jsonColumns: ['destinations', 'condition_groups'],
      orderBy: 'position',
      present: (row: Row) => ({ id: String(row.id), ...Object.fromEntries(RULE_COLUMNS.map((c) => [c, row[c]])) }),
    },
  },
  slug: { from: 'name' },
  filters: { search: { kind: 'search', columns: ['name'] }, name: 'string', slug: 'string' },
  sorts: ['name', 'slug', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  limit: { max: MAX_ALERT_ROUTES, detail: 'A team has at most {max} alert routes.' },
  // The reference tells clients to send it before a PATCH names nested ids; they are always shown here.
  getFlags: {
    show_nested_ids: 'Accepted as the reference has it; rules, destinations, condition groups and conditions always show their ids.',
  },
  hooks: {
    // An update's rules become the whole set here: PATCH merges them into the route's, PUT replaces them.
    prepare: (attributes, ctx) =>
      ctx.existing && attributes.rules !== undefined
        ? { ...attributes, rules: updatedRules(ctx.existing.rules as Row[], attributes.rules as Row[], ctx.method) }
        : attributes,
    defaults: (attributes) => ({ enabled: true, owning_team_ids: [], rules: [], ...attributes }),
    async validate(attributes, ctx) {
      const sources = (attributes.alerts_source_ids as string[] | undefined) ?? [];
      const references = ruleReferences((attributes.rules as StoredRule[] | undefined) ?? []);
      const existing = ctx.existing;
      const heldSources = new Set((existing?.alerts_source_ids as string[] | undefined) ?? []);
      const heldDestinations = ((existing?.rules as StoredRule[] | undefined) ?? []).flatMap((r) => r.destinations);
      return [
        ...(await sourceIssues(
          ctx,
          sources.map((id, i) => ({ pointer: `/data/attributes/alerts_source_ids/${i}`, id })),
          heldSources,
        )),
        ...(await destinationIssues(ctx, references.destinations, heldDestinations)),
        ...(await urgencyIssues(ctx, references.urgencies)),
        ...(await ownerGroupIssues(attributes, ctx, 'owning_team_ids')),
      ];
    },
  },
});
