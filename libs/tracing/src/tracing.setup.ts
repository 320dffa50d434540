/** What {@link startTracing} reads: the standard OpenTelemetry variables. */
export interface TracingEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_SDK_DISABLED?: string;
}

/** A started (or skipped) tracer provider. */
export interface Tracing {
  readonly enabled: boolean;
  /** Sends the spans still buffered and stops; call on shutdown. */
  shutdown(): Promise<void>;
}

let enabled = false;

/** True once {@link startTracing} found an OTLP endpoint: the span helpers do nothing before. */
export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Starts OpenTelemetry tracing for this process when an OTLP endpoint is configured
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, the full URL, or `OTEL_EXPORTER_OTLP_ENDPOINT`,
 * to which `/v1/traces` is added, both read from `env`; the exporter reads the other
 * `OTEL_*` variables itself) and does nothing otherwise. The SDK
 * is imported only here, so a process without an endpoint never loads it and the span
 * helpers stay a boolean test. Spans go out as OTLP/HTTP JSON in batches; context
 * travels as W3C `traceparent`.
 */
export async function startTracing(service: string, env: TracingEnv = process.env): Promise<Tracing> {
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    (env.OTEL_EXPORTER_OTLP_ENDPOINT && `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces`);
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true' || enabled) return { enabled: false, shutdown: async () => undefined };
  // The one dynamic import of production code: what it spares is loading the SDK at all when tracing is off.
  // eslint-disable-next-line no-restricted-syntax -- loaded only when configured, not hiding a cycle
  const { registerTracerProvider } = await import('./tracing.sdk.js');
  const shutdown = registerTracerProvider(service, endpoint);
  enabled = true;
  return {
    enabled: true,
    async shutdown() {
      enabled = false;
      await shutdown();
    },
  };
}
