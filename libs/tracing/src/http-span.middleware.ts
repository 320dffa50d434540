import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingEnabled } from './tracing.setup.js';

/** Options of {@link httpSpanMiddleware}. */
export interface HttpSpanOptions {
  /** Prefix of the span name (`gateway`, a service's name). */
  name: string;
  /**
   * Continue a caller's `traceparent` header. Services trust the gateway's; the gateway
   * starts every trace itself, so clients cannot choose trace ids or join others' traces.
   */
  continueTrace: boolean;
}

/**
 * A server span per request, active while the request is handled (so the spans and events
 * it causes join its trace), ended when the response finishes or the client goes away.
 * Names the request id, which `requestIdMiddleware` must have set before. With tracing off
 * it only calls `next`.
 */
export function httpSpanMiddleware(options: HttpSpanOptions) {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    if (!tracingEnabled()) return next();
    const parent = options.continueTrace ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
    const span = trace.getTracer('firewatch').startSpan(
      `${options.name} ${req.method}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method ?? '',
          'firewatch.request_id': req.id ?? '',
        },
      },
      parent,
    );
    res.once('close', () => {
      // The path is read at the end: by then the gateway has taken a ping URL's secret or an
      // action link's token out of it (ingest and alert-actions middlewares), as access logs read it.
      const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
      span.setAttribute('url.path', path.split('?')[0]);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
