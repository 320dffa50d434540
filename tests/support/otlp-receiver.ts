import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export names it, with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: { name: string; traceId: string; spanId: string; parentSpanId?: string; kind: number; attributes?: KeyValue[] }[];
    }[];
  }[];
}
interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function attributes(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/**
 * A tiny OTLP/HTTP collector for tests: accepts `POST /v1/traces` in the JSON encoding
 * (what `@opentelemetry/exporter-trace-otlp-http` sends) and keeps every span. Point
 * `OTEL_EXPORTER_OTLP_ENDPOINT` at its `url`.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributes(rs.resource?.attributes)['service.name']);
        for (const scope of rs.scopeSpans ?? [])
          for (const s of scope.spans ?? [])
            spans.push({
              service,
              name: s.name,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              kind: s.kind,
              attributes: attributes(s.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
