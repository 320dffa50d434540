import type { RoutingStore } from '../domain/routing/alert-router.js';
import type { AlertRouteRecord, LegacyRuleRecord } from '../domain/routing/route-selector.js';

type Json = Record<string, unknown>;

/** json_agg gives timestamps as text: the Date the driver would have given for a column. */
const dated = <T>(row: Json): T => ({ ...row, created_at: new Date(String(row.created_at)) }) as T;

/**
 * Routing's reads in one round trip (a new alert's paging asks on every intake): a source's
 * enabled routes of one team, each with its rules in position order, and its enabled legacy
 * rules, each with its conditions in position order.
 */
const ROUTING_SQL = `
select
  (select coalesce(json_agg(json_build_object(
            'id', r.id, 'name', r.name, 'enabled', r.enabled, 'alerts_source_ids', r.alerts_source_ids, 'created_at', r.created_at,
            'rules', (select coalesce(json_agg(json_build_object(
                        'id', u.id, 'alert_route_id', u.alert_route_id, 'name', u.name, 'position', u.position,
                        'fallback_rule', u.fallback_rule, 'destinations', u.destinations, 'condition_groups', u.condition_groups)
                        order by u.position), '[]'::json)
                      from alert_route_rules u where u.alert_route_id = r.id))), '[]'::json)
     from alert_routes r
    where r.team_id = ? and r.enabled and r.alerts_source_ids @> ?::jsonb) as routes,
  (select coalesce(json_agg(json_build_object(
            'id', l.id, 'name', l.name, 'enabled', l.enabled, 'alerts_source_id', l.alerts_source_id, 'position', l.position,
            'created_at', l.created_at, 'condition_type', l.condition_type, 'destination', l.destination,
            'conditions', (select coalesce(json_agg(json_build_object(
                             'id', c.id, 'alert_routing_rule_id', c.alert_routing_rule_id, 'position', c.position,
                             'property_field_type', c.property_field_type, 'property_field_name', c.property_field_name,
                             'property_field_condition_type', c.property_field_condition_type,
                             'property_field_value', c.property_field_value, 'property_field_values', c.property_field_values)
                             order by c.position), '[]'::json)
                           from alert_routing_rule_conditions c where c.alert_routing_rule_id = l.id))), '[]'::json)
     from alert_routing_rules l
    where l.team_id = ? and l.alerts_source_id = ? and l.enabled) as legacy`;

/** Routing's reads: a source's enabled routes and legacy rules of one team, with their rules and conditions. */
export function createAlertRoutingRepository(): RoutingStore {
  return {
    async routing(tx, teamId, sourceId) {
      const source = sourceId.toLowerCase();
      const { rows } = (await tx.raw(ROUTING_SQL, [teamId, JSON.stringify([source]), teamId, source])) as {
        rows: { routes: Json[]; legacy: Json[] }[];
      };
      return {
        routes: rows[0].routes.map((r) => dated<AlertRouteRecord>(r)),
        legacy: rows[0].legacy.map((l) => dated<LegacyRuleRecord>(l)),
      };
    },
  };
}
