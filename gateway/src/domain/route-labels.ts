import { createRouteResolver, INGEST_ROUTE, ROUTES, type Route } from './routes.js';

/** The label of an ingestion request: one per source would be a series per source. */
export const INGEST_LABEL = `${INGEST_ROUTE.prefix}{id}`;

/**
 * The metrics label of a forwarded path: the route-table entry it falls under
 * (`/v1/incidents`, `/v1/users/{user_id}/phone_numbers`), so the labels are the table's
 * few dozen prefixes and never a raw path with its ids; the services' own metrics have the
 * full templates. Undefined for a path the table does not route.
 */
export function createRouteLabeler(routes: readonly Route[] = ROUTES): (path: string) => string | undefined {
  const resolve = createRouteResolver(routes);
  return (path) => (path.startsWith(INGEST_ROUTE.prefix) ? INGEST_LABEL : resolve(path)?.prefix);
}
