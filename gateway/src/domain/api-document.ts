import { errorResponses, listOperations, mergeDocuments, type MergeResult, type OpenApiDocument } from '@firewatch/openapi';
import { createRouteMatcher, INGEST_ROUTES, ROUTES, UPSTREAMS, type Route, type UpstreamName } from './routes.js';

/** The `info` of the public API's document. */
export const API_INFO = {
  title: 'Firewatch API',
  version: '1.0.0',
  description:
    'The public API of Firewatch, served by the gateway: JSON:API (`application/vnd.api+json`) under `/v1`, ' +
    'every call with a bearer credential (an API key or an OAuth access token), rate-limited per credential.',
};

// What the gateway itself answers on any `/v1` route, before the service or instead of it.
const GATEWAY_ERRORS = [401, 502, 503, 504];

export interface ComposeInput {
  /** Each upstream's own document, as fetched from its `/openapi.json`. */
  documents: Partial<Record<UpstreamName, OpenApiDocument>>;
  routes?: readonly Route[];
}

/**
 * The whole public API as one document: of each upstream's document, only the paths the
 * route table sends to that upstream (a service may serve more than the gateway
 * exposes), merged, with the gateway's own answers added to every operation. Which
 * upstreams were missing is logged, not published: it would tell anyone what is down.
 */
export function composeApiDocument(input: ComposeInput): MergeResult {
  const match = createRouteMatcher(input.routes ?? ROUTES);
  const sources = UPSTREAMS.flatMap((name) => {
    const document = input.documents[name];
    const ingests = (path: string) => INGEST_ROUTES.some((r) => name === r.upstream && path.startsWith(r.prefix));
    return document ? [{ name, document, keepPath: (path: string) => match(path) === name || ingests(path) }] : [];
  });
  const { document, conflicts } = mergeDocuments(API_INFO, sources);
  for (const { operation } of listOperations(document)) {
    const codes = operation.requestBody ? [...GATEWAY_ERRORS, 413] : GATEWAY_ERRORS;
    // Rate limits are the gateway's alone, and its 429 body is its own: that one always wins.
    operation.responses = { ...errorResponses(...codes), ...(operation.responses as object), ...errorResponses(429) };
  }
  // Relative to where the document is served: the gateway itself.
  document.servers = [{ url: '/', description: 'This gateway' }];
  return { document, conflicts };
}
