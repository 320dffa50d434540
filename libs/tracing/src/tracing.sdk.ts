import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * The OpenTelemetry SDK, loaded by `startTracing` only when an OTLP endpoint is set: a
 * provider exporting batches of spans as OTLP/HTTP JSON to `url` (the exporter reads the
 * other `OTEL_*` variables, e.g. headers), registered with the AsyncLocalStorage context
 * manager and the W3C trace-context propagator. Returns its shutdown, which flushes.
 */
export function registerTracerProvider(service: string, url: string): () => Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return () => provider.shutdown();
}
