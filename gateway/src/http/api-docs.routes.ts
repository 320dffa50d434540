import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Response } from 'express';
import type { ApiDocumentSource } from '../domain/api-document.source.js';
import { DOCS_ASSETS, DOCS_CSP, DOCS_INIT_SCRIPT, DOCS_PAGE } from './api-docs.page.js';

const assetsDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const assets = new Set<string>(DOCS_ASSETS);

function docsHeaders(res: Response): Response {
  return res.set({ 'Content-Security-Policy': DOCS_CSP, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
}

/**
 * `GET /openapi.json` (the whole public API, merged from the services' documents) and
 * `GET /docs` (Swagger UI over it), both without a credential: they describe the API,
 * they reveal nothing of any team.
 */
export function apiDocsRoutes(source: ApiDocumentSource): Router {
  const router = Router();
  router.get('/openapi.json', async (req, res) => {
    const { json, gzip, etag } = await source.current();
    res.set({
      'Cache-Control': 'public, max-age=30',
      ETag: etag,
      Vary: 'Accept-Encoding',
      'Content-Type': 'application/json; charset=utf-8',
    });
    if (req.headers['if-none-match'] === etag) return void res.status(304).end();
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) res.set('Content-Encoding', 'gzip').send(gzip);
    else res.send(json);
  });
  router.get('/docs', (_req, res) => {
    docsHeaders(res).type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    docsHeaders(res).type('text/javascript').send(DOCS_INIT_SCRIPT);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    if (!assets.has(req.params.file)) return next();
    docsHeaders(res).sendFile(req.params.file, { root: assetsDir, maxAge: '1d' });
  });
  return router;
}
