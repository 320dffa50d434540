/** The services the gateway forwards to. */
export const UPSTREAMS = ['auth', 'incident-config', 'communications', 'on-call', 'webhooks'] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

export interface Route {
  /**
   * A `/v1/<collection>` path prefix, `/v1/<collection>/{param}/<collection>` for a
   * collection nested under another service's record (`/v1/users/{user_id}/phone_numbers`
   * is on-call's, `/v1/users` auth's), or `/v1/<collection>/<collection>` for a fixed
   * sub-collection another service serves (`/v1/teams/properties` is incident-config's
   * catalog, `/v1/teams` auth's); matched on whole path segments.
   */
  prefix: string;
  upstream: UpstreamName;
}

function owned(upstream: UpstreamName, collections: string[]): Route[] {
  return collections.map((c) => ({ prefix: `/v1/${c}`, upstream }));
}

function nestedUnder(upstream: UpstreamName, parent: string, collections: string[]): Route[] {
  return collections.map((c) => ({ prefix: `/v1/${parent}/${c}`, upstream }));
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
    'alert_sources',
    'alerts',
    'alert_events',
    'heartbeats',
    'escalation_policies',
    'escalation_paths',
    'escalation_levels',
    'alert_routes',
    'alert_routing_rules',
    'schedules',
    'schedule_rotations',
    'shifts',
    'schedule_rotation_users',
    'schedule_rotation_active_days',
    'override_shifts',
    'oncalls',
    'email_addresses',
    'phone_numbers',
    'notification_rules',
  ]),
  // Users are auth's; their contact methods and notification rules are on-call's (it pages).
  ...nestedUnder('on-call', 'users/{user_id}', ['email_addresses', 'phone_numbers', 'notification_rules']),
  // Teams are auth's; their catalog's properties are incident-config's, with every other catalog's (docs/decisions.md, Teams' properties).
  ...nestedUnder('incident-config', 'teams', ['properties']),
  ...owned('webhooks', ['webhooks']),
];

/**
 * Outside `/v1` and its API credentials (http/ingest.middleware.ts): monitoring tools post
 * to an alert source, and cron jobs ping a heartbeat, with the record's own secret.
 */
export const INGEST_ROUTES = [
  { prefix: '/ingest/alert_sources/', upstream: 'on-call' },
  { prefix: '/ingest/heartbeats/', upstream: 'on-call' },
] as const satisfies readonly Route[];

/** Outside `/v1` and its API credentials (http/alert-actions.middleware.ts): the signed acknowledge and resolve links of pages. */
export const ALERT_ACTIONS_ROUTE = { prefix: '/alert-actions/', upstream: 'on-call' } as const satisfies Route;

export type RouteMatcher = (path: string) => UpstreamName | undefined;

const PREFIX = /^\/v1\/([a-z0-9_-]+)(?:\/(\{[a-z_]+\}\/)?([a-z0-9_-]+))?$/;

/**
 * What one first segment routes to: its own route, the routes of collections nested under
 * its records, and those of fixed sub-collections.
 */
interface SegmentRoute {
  own?: Route;
  nested?: Map<string, Route>;
  fixed?: Map<string, Route>;
}

/**
 * Builds a resolver of paths to their route-table entry. A match is one Map lookup of the
 * path's second segment (`/v1/environmentsX` and `/v1/environments-old` do not match
 * `/v1/environments`); only a segment with fixed sub-collections (`teams`) looks at the
 * third (`/v1/teams/properties/...` resolves to that route), and one with nested routes
 * (`users`) at the fourth: `/v1/users/7/phone_numbers/...` resolves to the nested route;
 * the rest of `/v1/teams/...` and `/v1/users/...` to the segment's own. Forwarding and the metrics' route labels both
 * read paths through this one function.
 */
export function createRouteResolver(routes: readonly Route[] = ROUTES): (path: string) => Route | undefined {
  const bySegment = new Map<string, SegmentRoute>();
  for (const route of routes) {
    const [, segment, param, sub] = PREFIX.exec(route.prefix) ?? [];
    if (!segment) {
      throw new Error(
        `Route prefix must be /v1/<collection>, /v1/<collection>/{param}/<collection> or /v1/<collection>/<collection>: ${route.prefix}`,
      );
    }
    const entry = bySegment.get(segment) ?? {};
    const subs = sub ? (param ? (entry.nested ??= new Map()) : (entry.fixed ??= new Map())) : undefined;
    if (subs ? subs.has(sub!) : entry.own) throw new Error(`Route prefix listed twice: ${route.prefix}`);
    if (subs) subs.set(sub!, route);
    else entry.own = route;
    bySegment.set(segment, entry);
  }
  /** The path segment starting at `start`, up to the next slash or the end. */
  const segmentAt = (path: string, start: number) => {
    const end = path.indexOf('/', start);
    return end === -1 ? path.slice(start) : path.slice(start, end);
  };
  return (path) => {
    if (!path.startsWith('/v1/')) return undefined;
    const end = path.indexOf('/', 4);
    const entry = bySegment.get(end === -1 ? path.slice(4) : path.slice(4, end));
    if (end === -1 || !(entry?.nested || entry?.fixed)) return entry?.own;
    const fixed = entry.fixed?.get(segmentAt(path, end + 1));
    if (fixed || !entry.nested) return fixed ?? entry.own;
    const idEnd = path.indexOf('/', end + 1);
    if (idEnd <= end + 1) return entry.own;
    return entry.nested.get(segmentAt(path, idEnd + 1)) ?? entry.own;
  };
}

/** The upstream that serves a path, by {@link createRouteResolver}. */
export function createRouteMatcher(routes: readonly Route[] = ROUTES): RouteMatcher {
  const resolve = createRouteResolver(routes);
  return (path) => resolve(path)?.upstream;
}
