import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { tracingEnabled } from './tracing.setup.js';

export { SpanKind };

const tracer = () => trace.getTracer('firewatch');

/** Where a span hangs: a W3C `traceparent` (from an event or a header), else the active span. */
export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** A `traceparent` to continue; `null` starts a new trace whatever is active. */
  parent?: string | null;
}

function parentContext(parent: string | null | undefined): Context {
  if (parent === undefined) return context.active();
  if (parent === null) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent: parent });
}

function fail(span: Span, err: unknown): void {
  span.recordException(err as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
}

/** The active span's `traceparent`, to carry in an event or a header; undefined when tracing is off. */
export function currentTraceparent(): string | undefined {
  if (!tracingEnabled()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `fn` inside a new active span that ends when `fn` settles (an error marks it
 * failed and is rethrown). With tracing off it is just `fn()`.
 */
export function withSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return fn();
  const parent = parentContext(options.parent);
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return context.with(trace.setSpan(parent, span), fn).then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      fail(span, err);
      span.end();
      throw err;
    },
  );
}

/** A span ended by its owner: `end(error?)` once, and the `traceparent` naming it. */
export interface OpenSpan {
  readonly traceparent: string | undefined;
  setAttribute(key: string, value: string | number | boolean): void;
  end(error?: unknown): void;
}

const NO_SPAN: OpenSpan = { traceparent: undefined, setAttribute: () => undefined, end: () => undefined };

/** Starts a span that is not made active (a publish awaiting its confirm, a forwarded request). */
export function openSpan(name: string, options: SpanOptions = {}): OpenSpan {
  if (!tracingEnabled()) return NO_SPAN;
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parentContext(options.parent));
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  let ended = false;
  return {
    traceparent: carrier.traceparent,
    setAttribute: (key, value) => span.setAttribute(key, value),
    end(error) {
      if (ended) return;
      ended = true;
      if (error !== undefined) fail(span, error);
      span.end();
    },
  };
}
