import { INGEST_ROUTE, ROUTES, type Route } from './routes.js';

/** The label of an ingestion request: one per source would be a series per source. */
export const INGEST_LABEL = `${INGEST_ROUTE.prefix}{id}`;

/**
 * The metrics label of a forwarded path: the route-table entry it falls under
 * (`/v1/incidents`, `/v1/users/{user_id}/phone_numbers`), so the labels are the table's
 * few dozen prefixes and never a raw path with its ids; the services' own metrics have the
 * full templates. Undefined for a path the table does not route. Whole segments, as
 * `createRouteMatcher` matches them.
 */
export function createRouteLabeler(routes: readonly Route[] = ROUTES): (path: string) => string | undefined {
  const prefixes = new Set(routes.map((r) => r.prefix));
  // The parameter of a segment with collections nested under its records (`users` → `{user_id}`).
  const nestedParam = new Map<string, string>();
  for (const { prefix } of routes) {
    const [, , segment, param] = prefix.split('/');
    if (param !== undefined && segment !== undefined) nestedParam.set(segment, param);
  }
  return (path) => {
    if (path.startsWith(INGEST_ROUTE.prefix)) return INGEST_LABEL;
    if (!path.startsWith('/v1/')) return undefined;
    const [, , segment = '', id, sub] = path.split('/', 5);
    const param = nestedParam.get(segment);
    if (param !== undefined && id && sub) {
      const nested = `/v1/${segment}/${param}/${sub}`;
      if (prefixes.has(nested)) return nested;
    }
    const own = `/v1/${segment}`;
    return prefixes.has(own) ? own : undefined;
  };
}
