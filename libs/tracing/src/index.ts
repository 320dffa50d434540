export { startTracing, tracingEnabled, type Tracing, type TracingEnv } from './tracing.setup.js';
export { withSpan, openSpan, currentTraceparent, SpanKind, type OpenSpan, type SpanOptions } from './spans.js';
export { httpSpanMiddleware, type HttpSpanOptions } from './http-span.middleware.js';
export { createTraceMemo } from './trace-memo.js';
