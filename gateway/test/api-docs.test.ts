import express from 'express';
import { assembleDocument, BEARER, type OpenApiDocument } from '@firewatch/openapi';
import { listen, type Listening } from '@firewatch/testing';
import { createApiDocumentSource } from '../src/domain/api-document.source.js';
import type { UpstreamName } from '../src/domain/routes.js';
import { type FakeAuth, startFakeAuth } from './support/fake-services.js';
import { silent, startGateway, type StartedGateway, systemTokens } from './support/gateway-harness.js';

const op = (operationId: string) => ({ operationId, security: BEARER, responses: { '200': { description: 'ok' } } });
// What a service serves: one routed path, one the route table sends elsewhere, one internal.
const incidentConfigDoc = assembleDocument({ title: 'incident-config', version: '1' }, [
  {
    paths: {
      '/v1/environments': { get: op('list_environments'), post: { ...op('create_environments'), requestBody: {} } },
      '/v1/api_keys': { get: op('stray') },
      '/internal/x': { get: op('internal') },
    },
    schemas: {},
  },
]);

let auth: FakeAuth;
let upstream: Listening;
let closed: Listening;
let gateway: StartedGateway;

beforeAll(async () => {
  auth = await startFakeAuth(systemTokens);
  const app = express();
  app.get('/openapi.json', (_req, res) => {
    res.json(incidentConfigDoc);
  });
  upstream = await listen(app);
  // A port nothing listens on once closed: the webhooks service is down.
  closed = await listen(express());
  await closed.close();
  gateway = await startGateway({ authUrl: auth.url, env: { INCIDENT_CONFIG_URL: upstream.url, WEBHOOKS_URL: closed.url } });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await auth?.close();
});

describe('GET /openapi.json', () => {
  it('serves the merged document without a credential, with only the paths the route table sends to each upstream', async () => {
    const res = await fetch(`${gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as OpenApiDocument;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(['/v1/environments']);
    expect(doc.servers).toEqual([{ url: '/', description: 'This gateway' }]);
    expect(auth.calls).toHaveLength(0);
  });

  it("adds the gateway's own answers to every operation: 413 where a body goes, and its 429 body", async () => {
    const doc = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as OpenApiDocument;
    const { get, post } = doc.paths['/v1/environments'] as Record<string, { responses: Record<string, any> }>;
    expect(Object.keys(get.responses)).toEqual(['200', '401', '429', '502', '503', '504']);
    expect(Object.keys(post.responses)).toContain('413');
    expect(get.responses['429'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/rate_limited' });
  });

  it('still answers when upstreams are down or serve no document, without saying which', async () => {
    const doc = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as OpenApiDocument;
    expect(Object.keys(doc).filter((k) => k.startsWith('x-'))).toEqual([]);
  });

  it('is served from bytes made once, cacheable, gzipped when asked, and 304 for its ETag', async () => {
    const first = await fetch(`${gateway.url}/openapi.json`);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    expect(first.headers.get('content-encoding')).toBe('gzip'); // fetch asks for gzip and unpacks it
    expect((await fetch(`${gateway.url}/openapi.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('GET /docs', () => {
  it('serves the Swagger UI page under a CSP that allows only its own scripts', async () => {
    const res = await fetch(`${gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:/);
    const html = await res.text();
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves the renderer from its installed package, and nothing else of it', async () => {
    const bundle = await fetch(`${gateway.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${gateway.url}/docs/assets/swagger-ui.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${gateway.url}/docs/init.js`)).status).toBe(200);
    expect((await fetch(`${gateway.url}/docs/assets/index.html`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('the document source', () => {
  const doc = (title: string) =>
    assembleDocument({ title, version: '1' }, [{ paths: { '/v1/webhooks/endpoints': { get: op(`list_${title}`) } }, schemas: {} }]);

  function source(fetchDocument: (u: UpstreamName) => Promise<OpenApiDocument>) {
    let clock = 0;
    const calls: UpstreamName[] = [];
    const src = createApiDocumentSource({
      upstreams: { webhooks: 'http://webhooks' },
      logger: silent,
      ttlMs: 1000,
      retryMs: 100,
      now: () => clock,
      fetchDocument: (u) => {
        calls.push(u);
        return fetchDocument(u);
      },
    });
    return {
      src,
      calls,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  it('caches for its TTL, and concurrent requests share one fetch', async () => {
    const { src, calls, advance } = source(async () => doc('v1'));
    await Promise.all([src.current(), src.current(), src.current()]);
    await src.current();
    expect(calls).toHaveLength(1);
    advance(1001);
    await src.current();
    expect(calls).toHaveLength(2);
  });

  it("serves an upstream's last document while it is down, names it stale, and asks again sooner", async () => {
    let up = true;
    const { src, calls, advance } = source(async () => {
      if (!up) throw new Error('ECONNREFUSED');
      return doc('v1');
    });
    await src.current();
    up = false;
    advance(1001);
    const stale = await src.current();
    expect(stale.stale).toEqual(['webhooks']);
    expect(stale.document.paths).toHaveProperty('/v1/webhooks/endpoints');
    up = true;
    advance(101);
    const fresh = await src.current();
    expect(fresh.stale).toEqual([]);
    expect(calls).toHaveLength(3);
  });
});
