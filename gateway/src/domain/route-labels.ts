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
  // By first segment: its own prefix, and the prefixes of collections nested under its records.
  const own = new Map<string, string>();
  const nested = new Map<string, Map<string, string>>();
  for (const { prefix } of routes) {
    const [, , segment = '', , sub] = prefix.split('/');
    if (sub === undefined) own.set(segment, prefix);
    else nested.set(segment, (nested.get(segment) ?? new Map<string, string>()).set(sub, prefix));
  }
  return (path) => {
    if (path.startsWith(INGEST_ROUTE.prefix)) return INGEST_LABEL;
    if (!path.startsWith('/v1/')) return undefined;
    // Segments by index, not split: this runs for every request.
    const end = path.indexOf('/', 4);
    const segment = end === -1 ? path.slice(4) : path.slice(4, end);
    const subs = nested.get(segment);
    const idEnd = subs === undefined || end === -1 ? -1 : path.indexOf('/', end + 1);
    if (idEnd > end + 1) {
      const subEnd = path.indexOf('/', idEnd + 1);
      const label = subs!.get(subEnd === -1 ? path.slice(idEnd + 1) : path.slice(idEnd + 1, subEnd));
      if (label !== undefined) return label;
    }
    return own.get(segment);
  };
}
