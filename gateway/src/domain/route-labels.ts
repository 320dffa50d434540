import { ALERT_ACTIONS_ROUTE, createRouteResolver, INGEST_ROUTES, ROUTES, type Route } from './routes.js';

/**
 * The label of an ingestion request: one per source would be a series per source (and a
 * heartbeat's path may carry its secret). In any case, as the gateway forwards them (app.ts).
 */
const ingestLabel = (given: string) => {
  const path = given.toLowerCase();
  const route = INGEST_ROUTES.find((r) => path.startsWith(r.prefix));
  if (route) return `${route.prefix}{id}`;
  // A link's token never becomes a label (and on-call receives the bare path).
  return path.startsWith(ALERT_ACTIONS_ROUTE.prefix) || path === '/alert-actions' ? `${ALERT_ACTIONS_ROUTE.prefix}{token}` : undefined;
};

/**
 * The metrics label of a forwarded path: the route-table entry it falls under
 * (`/v1/incidents`, `/v1/users/{user_id}/phone_numbers`), so the labels are the table's
 * few dozen prefixes and never a raw path with its ids; the services' own metrics have the
 * full templates. Undefined for a path the table does not route.
 */
export function createRouteLabeler(routes: readonly Route[] = ROUTES): (path: string) => string | undefined {
  const resolve = createRouteResolver(routes);
  return (path) => ingestLabel(path) ?? resolve(path)?.prefix;
}
