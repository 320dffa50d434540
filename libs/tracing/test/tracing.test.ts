import { currentTraceparent, httpSpanMiddleware, openSpan, SpanKind, startTracing, tracingEnabled, withSpan } from '../src/index.js';
// The collector the end-to-end tests point the services at: the same OTLP/HTTP JSON it judges there.
import { startOtlpReceiver } from '../../../tests/support/otlp-receiver.js';

describe('tracing', () => {
  it('is off without an endpoint: the helpers only run what they wrap', async () => {
    const tracing = await startTracing('test', {});
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(await withSpan('x', {}, async () => 42)).toBe(42);
    expect(currentTraceparent()).toBeUndefined();
    expect(openSpan('y').traceparent).toBeUndefined();
    let called = 0;
    httpSpanMiddleware({ name: 'gateway', continueTrace: false })({ headers: {} } as never, {} as never, () => called++);
    expect(called).toBe(1);
  });

  it('exports nested spans in one trace when an endpoint is set, and continues a traceparent', async () => {
    const receiver = await startOtlpReceiver();
    const tracing = await startTracing('test', { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/` });
    try {
      expect(tracing.enabled).toBe(true);
      let carried: string | undefined;
      await withSpan('request', { kind: SpanKind.SERVER }, async () => {
        await withSpan('outbox write', {}, async () => {
          carried = currentTraceparent();
        });
      });
      expect(carried).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const publish = openSpan('publish', { kind: SpanKind.PRODUCER, parent: carried });
      publish.end();
      await withSpan('consume', { kind: SpanKind.CONSUMER, parent: publish.traceparent }, async () => undefined);
      await expect(withSpan('fails', { parent: null }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    } finally {
      await tracing.shutdown();
      await receiver.close();
    }
    const by = (name: string) => receiver.spans.find((s) => s.name === name)!;
    expect(receiver.spans.map((s) => s.name).sort()).toEqual(['consume', 'fails', 'outbox write', 'publish', 'request']);
    expect(new Set(['request', 'outbox write', 'publish', 'consume'].map((n) => by(n).traceId)).size).toBe(1);
    expect(by('request').parentSpanId).toBeUndefined();
    expect(by('outbox write').parentSpanId).toBe(by('request').spanId);
    expect(by('publish').parentSpanId).toBe(by('outbox write').spanId);
    expect(by('consume').parentSpanId).toBe(by('publish').spanId);
    expect(by('fails').traceId).not.toBe(by('request').traceId);
    expect(receiver.spans.every((s) => s.service === 'test')).toBe(true);
    expect(tracingEnabled()).toBe(false);
  });
});
