import type { OpenApiDocument } from '@firewatch/openapi';
import type { FetchUpstreamDocument } from '../domain/api-document.source.js';

const isDocument = (body: unknown): body is OpenApiDocument =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { openapi?: unknown }).openapi === 'string' &&
  typeof (body as { paths?: unknown }).paths === 'object' &&
  (body as { paths?: unknown }).paths !== null;

/**
 * Fetches `GET {baseUrl}/openapi.json`, which every service serves without a credential
 * on its internal port. A slow service must not hold `/openapi.json` up for long.
 */
export function createUpstreamOpenApiClient(options: { timeoutMs?: number } = {}): FetchUpstreamDocument {
  const timeoutMs = options.timeoutMs ?? 3000;
  return async (_upstream, baseUrl) => {
    const res = await fetch(`${baseUrl}/openapi.json`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
    const body: unknown = await res.json();
    if (!isDocument(body)) throw new Error('GET /openapi.json did not answer an OpenAPI document');
    return body;
  };
}
