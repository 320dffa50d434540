import type { OpenApiDocument } from '@firewatch/openapi';
import type { Logger } from '@firewatch/logger';
import { composeApiDocument } from './api-document.js';
import type { Route, UpstreamName } from './routes.js';

/** Fetches one upstream's own document; throws when it cannot. */
export type FetchUpstreamDocument = (upstream: UpstreamName, baseUrl: string) => Promise<OpenApiDocument>;

export interface ApiDocumentSourceOptions {
  /** The configured upstreams and their base URLs; unset ones are not deployed. */
  upstreams: Partial<Record<UpstreamName, string>>;
  fetchDocument: FetchUpstreamDocument;
  logger: Logger;
  routes?: readonly Route[];
  /** How long a complete document is served before the upstreams are asked again. */
  ttlMs?: number;
  /** How long an incomplete one is, so a recovered service shows up soon. */
  retryMs?: number;
  now?: () => number;
}

export interface ApiDocumentSource {
  /** The public API's document, from the cache while it is fresh. */
  current(): Promise<OpenApiDocument>;
}

/**
 * The gateway's view of the public API, built from the upstreams' own documents. Each
 * service deploys alone, so the document is fetched rather than compiled in; an upstream
 * that does not answer is served from its last document, or left out and named, rather
 * than failing the whole document. Concurrent requests share one refresh.
 */
export function createApiDocumentSource(options: ApiDocumentSourceOptions): ApiDocumentSource {
  const { fetchDocument, logger, ttlMs = 30_000, retryMs = 5_000, now = Date.now } = options;
  const upstreams = Object.entries(options.upstreams).filter((e): e is [UpstreamName, string] => e[1] !== undefined);
  const lastGood = new Map<UpstreamName, OpenApiDocument>();
  const reported = new Set<string>();
  let cached: { document: OpenApiDocument; expiresAt: number } | undefined;
  let refreshing: Promise<OpenApiDocument> | undefined;

  async function refresh(): Promise<OpenApiDocument> {
    const failed: UpstreamName[] = [];
    await Promise.all(upstreams.map(async ([name, baseUrl]) => {
      try {
        lastGood.set(name, await fetchDocument(name, baseUrl));
      } catch (err) {
        failed.push(name);
        logger.warn('upstream OpenAPI document unavailable', {
          upstream: name,
          error: (err as Error).message,
          serving: lastGood.has(name) ? 'its last document' : 'the API without its paths',
        });
      }
    }));
    const { document, conflicts } = composeApiDocument({
      documents: Object.fromEntries(lastGood),
      missing: failed.filter((n) => !lastGood.has(n)),
      stale: failed.filter((n) => lastGood.has(n)),
      routes: options.routes,
    });
    for (const conflict of conflicts.filter((c) => !reported.has(c))) {
      reported.add(conflict);
      logger.warn('upstream OpenAPI documents conflict', { conflict });
    }
    cached = { document, expiresAt: now() + (failed.length ? retryMs : ttlMs) };
    return document;
  }

  return {
    current() {
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.document);
      refreshing ??= refresh().finally(() => { refreshing = undefined; });
      return refreshing;
    },
  };
}
