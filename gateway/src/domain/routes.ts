/** The services the gateway forwards to. */
export const UPSTREAMS = ['auth', 'incident-config', 'communications', 'on-call', 'webhooks'] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

export interface Route {
  /** A `/v1/<collection>` path prefix, matched on whole path segments. */
  prefix: string;
  upstream: UpstreamName;
}

function owned(upstream: UpstreamName, collections: string[]): Route[] {
  return collections.map((c) => ({ prefix: `/v1/${c}`, upstream }));
}

/** Which service owns which public path. The one place a new collection is wired in. */
export const ROUTES: readonly Route[] = [
  ...owned('auth', ['api_keys', 'users', 'oauth_applications', 'teams']),
  ...owned('incident-config', [
    'environments',
    'services',
    'functionalities',
    'catalog_properties',
    'incident_roles',
    'retrospective_processes',
    'form_set_conditions',
    'form_sets',
    'dashboards',
    'dashboard_panels',
    'secrets',
    'authorizations',
    'incidents',
    'events',
    'incident_event_services',
    'severities',
    'incident_types',
  ]),
  ...owned('communications', ['communications']),
  ...owned('on-call', [
    'alert_urgencies',
    'alert_groups',
    'alert_retrigger_rules',
    'schedules',
    'schedule_rotations',
    'shifts',
    'schedule_rotation_users',
    'schedule_rotation_active_days',
    'override_shifts',
  ]),
  ...owned('webhooks', ['webhooks']),
];

export type RouteMatcher = (path: string) => UpstreamName | undefined;

const SINGLE_SEGMENT = /^\/v1\/[a-z0-9_-]+$/;

/**
 * Builds a matcher over `/v1/<collection>` prefixes. Every prefix is one segment deep, so
 * a match is one Map lookup of the path's second segment: `/v1/environmentsX` and
 * `/v1/environments-old` do not match `/v1/environments`.
 */
export function createRouteMatcher(routes: readonly Route[] = ROUTES): RouteMatcher {
  const bySegment = new Map<string, UpstreamName>();
  for (const route of routes) {
    if (!SINGLE_SEGMENT.test(route.prefix)) throw new Error(`Route prefix must be /v1/<collection>: ${route.prefix}`);
    const segment = route.prefix.slice(4);
    if (bySegment.has(segment)) throw new Error(`Route prefix listed twice: ${route.prefix}`);
    bySegment.set(segment, route.upstream);
  }
  return (path) => {
    if (!path.startsWith('/v1/')) return undefined;
    const end = path.indexOf('/', 4);
    return bySegment.get(end === -1 ? path.slice(4) : path.slice(4, end));
  };
}
