export const IR_RESOURCES = [
  'incidents',
  'services',
  'environments',
  'functionalities',
  'severities',
  'incident_types',
  'incident_roles',
  'workflows',
  'catalogs',
  'groups',
  'playbooks',
  'retrospectives',
  'status_pages',
  'form_fields',
  'pulses',
] as const;

export const OC_RESOURCES = [
  'alerts',
  'schedules',
  'escalation_policies',
  'alert_routing_rules',
  'heartbeats',
  'alert_sources',
  'live_call_routing',
  'shift_overrides',
] as const;

export const META_SCOPES = ['all', 'ir.all', 'oc.all'] as const;

/** Every granular scope, in the order the specification lists them. */
export const GRANULAR_SCOPES: string[] = [
  ...IR_RESOURCES.flatMap((r) => [`ir.${r}:read`, `ir.${r}:write`]),
  ...OC_RESOURCES.flatMap((r) => [`oc.${r}:read`, `oc.${r}:write`]),
];

/**
 * Expands meta scopes into the set the checks use. Meta scopes stay in the set too,
 * because scope-less resources (communications, dashboards, ...) need `all` or `ir.all`.
 */
export function expandScopes(scopes: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const scope of scopes) {
    out.add(scope);
    if (scope === 'all' || scope === 'ir.all') {
      for (const r of IR_RESOURCES) out.add(`ir.${r}:read`).add(`ir.${r}:write`);
    }
    if (scope === 'all' || scope === 'oc.all') {
      for (const r of OC_RESOURCES) out.add(`oc.${r}:read`).add(`oc.${r}:write`);
    }
  }
  return out;
}
