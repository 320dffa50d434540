import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '@firewatch/logger';

// The rule of libs/logger's requestIdMiddleware: a client's id is kept only when it is a
// short safe token, so no client can forge log lines.
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes `X-Request-Id` from the client when valid, else makes one; sets it as `req.id`,
 * passes it on to the service and echoes it on the response, as libs/logger's
 * requestIdMiddleware does, but runs the request in no AsyncLocalStorage context: the
 * first context entered turns on Node's async hooks for the whole process, after which
 * every promise (ioredis', the signer's, the chain's) pays their init hook, some 17 µs of
 * a 160 µs lookup. The gateway's log lines of a request name its id themselves
 * (`request_id: req.id`).
 */
export function requestIdMiddleware() {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void): void => {
    const given = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof given === 'string' && VALID_ID.test(given) ? given : randomUUID();
    req.id = requestId;
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}

/** The id {@link requestIdMiddleware} gave `req`, for its log lines. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as { id?: string }).id;
}
