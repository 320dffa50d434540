import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomRequestId } from './request-id.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

interface RequestContext {
  requestId: string;
}

/** Carries the request id through async calls so every log line of a request names it. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/**
 * Gives `req` its request id: the caller's `X-Request-Id` when it is a short safe token
 * (so a client cannot forge log lines), else a new one. Sets it as `req.id` and in the
 * request's headers (passed on), echoes it on the response, and returns it.
 */
export function assignRequestId(req: IncomingMessage & { id?: string }, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const requestId = typeof given === 'string' && VALID_ID.test(given) ? given : randomRequestId();
  req.id = requestId;
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader('X-Request-Id', requestId);
  return requestId;
}

/**
 * Takes `X-Request-Id` from the caller (the gateway makes one when the client sent
 * none) as {@link assignRequestId} does and runs the rest of the request inside its context.
 */
export function requestIdMiddleware() {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    requestContext.run({ requestId: assignRequestId(req, res) }, next);
  };
}
