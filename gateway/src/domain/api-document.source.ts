import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
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

/** The document as served: serialised (and gzipped) once per refresh, with its ETag. */
export interface ServedDocument {
  document: OpenApiDocument;
  json: Buffer;
  gzip: Buffer;
  etag: string;
  /** Upstreams left out (no document yet) or served from their last document; logged, not published. */
  missing: UpstreamName[];
  stale: UpstreamName[];
}

export interface ApiDocumentSource {
  /** The public API's document, from the cache while it is fresh. */
  current(): Promise<ServedDocument>;
}

function served(document: OpenApiDocument, missing: UpstreamName[], stale: UpstreamName[]): ServedDocument {
  const json = Buffer.from(JSON.stringify(document));
  return {
    document,
    json,
    gzip: gzipSync(json),
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    missing,
    stale,
  };
}

/**
 * The gateway's view of the public API, built from the upstreams' own documents. Each
 * service deploys alone, so the document is fetched rather than compiled in; an upstream
 * that does not answer is served from its last document, or left out (and logged), rather
 * than failing the whole document. Concurrent requests share one refresh, and the
 * document is serialised once per refresh: anonymous readers cost a buffer write.
 */
export function createApiDocumentSource(options: ApiDocumentSourceOptions): ApiDocumentSource {
  const { fetchDocument, logger, ttlMs = 30_000, retryMs = 5_000, now = Date.now } = options;
  const upstreams = Object.entries(options.upstreams).filter((e): e is [UpstreamName, string] => e[1] !== undefined);
  const lastGood = new Map<UpstreamName, OpenApiDocument>();
  const reported = new Set<string>();
  let cached: { served: ServedDocument; expiresAt: number } | undefined;
  let refreshing: Promise<ServedDocument> | undefined;

  async function refresh(): Promise<ServedDocument> {
    const failed: UpstreamName[] = [];
    await Promise.all(
      upstreams.map(async ([name, baseUrl]) => {
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
      }),
    );
    const missing = failed.filter((n) => !lastGood.has(n));
    const stale = failed.filter((n) => lastGood.has(n));
    const { document, conflicts } = composeApiDocument({ documents: Object.fromEntries(lastGood), routes: options.routes });
    for (const conflict of conflicts.filter((c) => !reported.has(c))) {
      reported.add(conflict);
      logger.warn('upstream OpenAPI documents conflict', { conflict });
    }
    cached = { served: served(document, missing, stale), expiresAt: now() + (failed.length ? retryMs : ttlMs) };
    return cached.served;
  }

  return {
    current() {
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.served);
      refreshing ??= refresh().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },
  };
}
