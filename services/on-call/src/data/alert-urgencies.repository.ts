import type { UrgenciesDeps } from '../domain/on-call.deps.js';

/** The alert urgencies as the alert declarations' conditions name them. */
export function createAlertUrgenciesRepository(): UrgenciesDeps {
  return {
    async existingIds(tx, teamId, ids) {
      if (!ids.length) return new Set<string>();
      // FOR SHARE: a delete of one of them (which locks it first) waits for this write to commit and then sees it in use.
      const rows: { id: string }[] = await tx('alert_urgencies')
        .where({ team_id: teamId })
        .whereIn('id', [...ids])
        .select('id')
        .forShare();
      return new Set(rows.map((r) => r.id));
    },
    async uses(tx, teamId, urgencyId) {
      const groups: { id: string; name: string }[] = await tx('alert_groups as g')
        .where('g.team_id', teamId)
        .whereExists((q) =>
          q
            .select(tx.raw('1'))
            .from('alert_group_conditions as c')
            .whereRaw('c.alert_group_id = g.id')
            .whereRaw('c.alert_urgency_ids @> ?::jsonb', [JSON.stringify([urgencyId])]),
        )
        .orderBy('g.name')
        .select('g.id', 'g.name');
      const rules: { id: string; name: string }[] = await tx('alert_retrigger_rules as r')
        .where('r.team_id', teamId)
        .whereExists((q) =>
          q
            .select(tx.raw('1'))
            .from('alert_retrigger_rule_conditions as c')
            .whereRaw('c.alert_retrigger_rule_id = r.id')
            .where('c.kind', 'urgency')
            .whereRaw('c.record_ids @> ?::jsonb', [JSON.stringify([urgencyId])]),
        )
        .orderBy('r.name')
        .select('r.id', 'r.name');
      const routes: { id: string; name: string }[] = await tx('alert_routes as a')
        .where('a.team_id', teamId)
        .whereExists((q) =>
          q
            .select(tx.raw('1'))
            .from('alert_route_rules as r')
            .whereRaw('r.alert_route_id = a.id')
            .whereRaw(
              `jsonb_path_exists(r.condition_groups, '$[*].conditions[*].alert_urgency_ids[*] \\? (@ == $u)', jsonb_build_object('u', ?::text))`,
              [urgencyId],
            ),
        )
        .orderBy('a.name')
        .select('a.id', 'a.name');
      const routingRules: { id: string; name: string }[] = await tx('alert_routing_rules as r')
        .where('r.team_id', teamId)
        .whereExists((q) =>
          q
            .select(tx.raw('1'))
            .from('alert_routing_rule_conditions as c')
            .whereRaw('c.alert_routing_rule_id = r.id')
            .where({ 'c.property_field_type': 'attribute', 'c.property_field_name': 'alert_urgency' })
            .whereRaw('c.property_field_values @> ?::jsonb', [JSON.stringify([urgencyId])]),
        )
        .orderBy('r.name')
        .select('r.id', 'r.name');
      return { alert_groups: groups, alert_retrigger_rules: rules, alert_routes: routes, alert_routing_rules: routingRules };
    },
  };
}
