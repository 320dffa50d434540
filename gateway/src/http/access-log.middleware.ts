import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { Logger } from '@firewatch/logger';
import { type GatewayState, stateOf } from './request-state.js';

const STARTED = Symbol('startedAt');
type Timed = ServerResponse & { [STARTED]?: number; req: IncomingMessage & { id?: string; originalUrl?: string } };

/** The rate-limit identity of the caller, never its token: an ingestion request is its source. */
function callerOf(state: GatewayState | undefined): string | undefined {
  if (state?.ingestion) return `source:${state.ingestion.sourceId}`;
  return state?.credential?.identities.credential;
}

/**
 * One `http`-level line per request: method, path, status, duration, request id and the
 * caller's rate-limit identity (a key id or client:user, never the token). Skipped
 * entirely when the level is above `http`, so the hot path pays nothing then.
 */
export function accessLogMiddleware(logger: Logger): RequestHandler {
  function onClose(this: Timed) {
    const req = this.req;
    const url = req.originalUrl ?? req.url ?? '';
    const query = url.indexOf('?');
    logger.http('request', {
      method: req.method,
      path: query === -1 ? url : url.slice(0, query),
      status: this.statusCode,
      duration_ms: Math.round((performance.now() - this[STARTED]!) * 100) / 100,
      request_id: req.id,
      caller: callerOf(stateOf(req)),
      aborted: this.writableFinished ? undefined : true,
    });
  }

  return (_req, res, next) => {
    if (logger.isLevelEnabled('http')) {
      (res as Timed)[STARTED] = performance.now();
      res.once('close', onClose);
    }
    next();
  };
}
