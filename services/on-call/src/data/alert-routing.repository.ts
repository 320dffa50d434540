import type { Row } from '@firewatch/resource-kit';
import type { RoutingStore } from '../domain/routing/alert-router.js';
import type { AlertRouteRecord, LegacyRuleRecord } from '../domain/routing/route-selector.js';

/** Routing's reads: a source's enabled routes and legacy rules of one team, with their rules and conditions. */
export function createAlertRoutingRepository(): RoutingStore {
  return {
    async routes(tx, teamId, sourceId) {
      const routes: Row[] = await tx('alert_routes')
        .where({ team_id: teamId, enabled: true })
        .whereRaw('alerts_source_ids @> ?::jsonb', [JSON.stringify([sourceId.toLowerCase()])])
        .select('id', 'name', 'enabled', 'alerts_source_ids', 'created_at');
      if (!routes.length) return [];
      const rules: Row[] = await tx('alert_route_rules')
        .whereIn(
          'alert_route_id',
          routes.map((r) => String(r.id)),
        )
        .orderBy('position')
        .select('id', 'alert_route_id', 'name', 'position', 'fallback_rule', 'destinations', 'condition_groups');
      return routes.map((route) => ({
        ...route,
        rules: rules.filter((rule) => rule.alert_route_id === route.id),
      })) as unknown as AlertRouteRecord[];
    },
    async legacyRules(tx, teamId, sourceId) {
      const rules: Row[] = await tx('alert_routing_rules')
        .where({ team_id: teamId, alerts_source_id: sourceId.toLowerCase(), enabled: true })
        .select('id', 'name', 'enabled', 'alerts_source_id', 'position', 'created_at', 'condition_type', 'destination');
      if (!rules.length) return [];
      const conditions: Row[] = await tx('alert_routing_rule_conditions')
        .whereIn(
          'alert_routing_rule_id',
          rules.map((r) => String(r.id)),
        )
        .orderBy('position');
      return rules.map((rule) => ({
        ...rule,
        conditions: conditions.filter((c) => c.alert_routing_rule_id === rule.id),
      })) as unknown as LegacyRuleRecord[];
    },
  };
}
