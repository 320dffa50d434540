import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type Plugin, type RequestHandler } from 'http-proxy-middleware';
import {
  BadGatewayError,
  GatewayTimeoutError,
  type HttpError,
  PayloadTooLargeError,
  ServiceUnavailableError,
} from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { UpstreamName } from '../domain/routes.js';
import { type GatewayState, stateOf } from './request-state.js';

export interface UpstreamProxyOptions {
  name: UpstreamName;
  baseUrl: string;
  /** Shared keep-alive agents; without them every request opens a connection. */
  agents: { http: Agent; https: Agent };
  timeoutMs: number;
  bodyLimitBytes: number;
  logger: Logger;
}

const TIMED_OUT = Symbol('timedOut');
type MaybeTimedOut = ClientRequest & { [TIMED_OUT]?: boolean };

function markTimedOut(this: MaybeTimedOut) {
  this[TIMED_OUT] = true;
}

const SERVICE_GONE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** Stops a client that keeps streaming after its body passed the limit: answer 413 and cut the upstream. */
function refuse(req: IncomingMessage, state: GatewayState, error: HttpError) {
  state.failed = true;
  req.unpipe();
  state.proxyReq?.destroy();
  const res = (req as IncomingMessage & { res?: ServerResponse }).res;
  // The rest of the body is not read; closing the connection is the only way to be rid of it.
  if (res && !res.headersSent) res.setHeader('Connection', 'close');
  state.next?.(error);
}

/**
 * An http-proxy-middleware instance for one service. The default plugins are ejected
 * (their logger formats a URL per response); this plugin keeps what matters: error answers
 * as JSON:API, the streaming body limit, the upstream timeout, and releasing the upstream
 * socket when the client goes away mid-response.
 */
export function createUpstreamProxy(options: UpstreamProxyOptions): RequestHandler {
  const { name, logger, bodyLimitBytes, timeoutMs } = options;
  const url = new URL(options.baseUrl);
  const target = {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    host: url.host,
    port: url.port || (url.protocol === 'https:' ? '443' : '80'),
    path: url.pathname === '/' ? '' : url.pathname,
  };

  function countBody(this: IncomingMessage, chunk: Buffer) {
    const state = stateOf(this);
    if (!state || state.failed) return;
    state.received += chunk.length;
    if (state.received > bodyLimitBytes) {
      this.off('data', countBody);
      refuse(this, state, new PayloadTooLargeError(`The request body exceeds ${bodyLimitBytes} bytes.`));
    }
  }

  function onClientClose(this: ServerResponse) {
    if (!this.writableEnded) stateOf(this.req)?.proxyRes?.destroy();
  }

  const plugin: Plugin = (proxy) => {
    proxy.on('start', (req) => {
      // Emitted just before the body is piped upstream: counting from here misses no chunk.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
        req.on('data', countBody);
      }
    });
    proxy.on('proxyReq', (proxyReq, req) => {
      const state = stateOf(req);
      if (!state) return;
      if (state.failed) {
        proxyReq.destroy();
        return;
      }
      state.proxyReq = proxyReq;
      proxyReq.once('timeout', markTimedOut);
    });
    proxy.on('proxyRes', (proxyRes, req, res) => {
      const state = stateOf(req);
      if (state) state.proxyRes = proxyRes;
      res.once('close', onClientClose);
    });
    proxy.on('error', (err: NodeJS.ErrnoException, req: IncomingMessage, res: ServerResponse | Socket) => {
      const state = stateOf(req);
      if (!state || state.failed) return;
      state.failed = true;
      const timedOut = (state.proxyReq as MaybeTimedOut | undefined)?.[TIMED_OUT] === true;
      logger.warn('upstream request failed', { upstream: name, code: timedOut ? 'ETIMEDOUT' : err.code, error: err.message });
      if (!('setHeader' in res) || !state.next) {
        res.destroy();
        return;
      }
      if (timedOut) state.next(new GatewayTimeoutError(`The ${name} service did not answer within ${timeoutMs} ms.`));
      else if (SERVICE_GONE.has(err.code ?? '')) state.next(new ServiceUnavailableError(`The ${name} service is unavailable. Try again shortly.`, { code: 'upstream_unavailable' }));
      else state.next(new BadGatewayError(`The ${name} service failed to answer.`));
    });
  };

  return createProxyMiddleware({
    target,
    agent: target.protocol === 'https:' ? options.agents.https : options.agents.http,
    proxyTimeout: timeoutMs,
    xfwd: true,
    ejectPlugins: true,
    plugins: [plugin],
  });
}
