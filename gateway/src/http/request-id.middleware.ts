import type { IncomingMessage, ServerResponse } from 'node:http';
import { assignRequestId, requestContext } from '@firewatch/logger';

/**
 * The request id of a forwarded request, taken or made by libs/logger's rule
 * (`assignRequestId`), but the request runs in no AsyncLocalStorage context: on the
 * forwarded paths that context cost 3-7 µs of a ~60 µs lookup on Node 24 (more on Node 22,
 * where the first context turns on async hooks for the whole process). Their log lines
 * name the id themselves (`request_id: requestIdOf(req)`), and what they call that logs on
 * its own (the credential resolve) runs inside the context ({@link inRequestContext}).
 */
export function forwardedRequestIdMiddleware() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    assignRequestId(req, res);
    next();
  };
}

/** The id the request-id middleware gave `req`, for its log lines. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as { id?: string }).id;
}

/** `fn` run inside `req`'s request-id context, so what it logs names the request. */
export function inRequestContext<T>(req: IncomingMessage, fn: () => T): T {
  const requestId = requestIdOf(req);
  return requestId === undefined ? fn() : requestContext.run({ requestId }, fn);
}
