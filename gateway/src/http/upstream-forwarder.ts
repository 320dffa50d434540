import http, { type Agent, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { RequestHandler } from 'express';
import { BadGatewayError, GatewayTimeoutError, PayloadTooLargeError, ServiceUnavailableError } from '@firewatch/errors';
import { ACTION_TOKEN_HEADER, PRINCIPAL_HEADER, SOURCE_SECRET_HEADER, type PrincipalSigner } from '@firewatch/auth';
import type { Logger } from '@firewatch/logger';
import { openSpan, SpanKind } from '@firewatch/tracing';
import { INGEST_LIMIT_HEADER } from '../domain/ingest-limits.js';
import type { UpstreamName } from '../domain/routes.js';
import { requestIdOf } from './request-id.middleware.js';
import { type GatewayState, stateOf } from './request-state.js';

export interface UpstreamForwarderOptions {
  name: UpstreamName;
  baseUrl: string;
  /** Shared keep-alive agents; without them every request opens a connection. */
  agents: { http: Agent; https: Agent };
  timeoutMs: number;
  bodyLimitBytes: number;
  logger: Logger;
  /** Signs the principal for this service (the token's audience is `name`). */
  signer: PrincipalSigner;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);
const SERVICE_GONE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

// Never forwarded from the client: hop-by-hop ones, its credential, a principal, source
// secret or link token it sent (the gateway's own are added), and trace context, which is
// the gateway's to give. The X-Forwarded-* ones are the gateway's to write (below).
const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  'authorization',
  SOURCE_SECRET_HEADER,
  ACTION_TOKEN_HEADER,
  PRINCIPAL_HEADER,
  'traceparent',
  'tracestate',
  'x-forwarded-for',
  'x-forwarded-proto',
]);

/**
 * The client's headers minus those above, plus the signed principal (and a source's secret
 * or a link's token), as the flat name/value list `http.request` writes out as given:
 * built in one pass, without the per-header `setHeader` an object takes.
 */
function requestHeaders(req: IncomingMessage, principal: string | undefined, state: GatewayState, defaultHost: string): string[] {
  const given = req.headers;
  const out: string[] = [];
  for (const name in given) {
    if (NOT_FORWARDED.has(name)) continue;
    // A client's X-Forwarded-Host stays only when it sent no Host for the gateway's to replace.
    if (name === 'x-forwarded-host' && given.host) continue;
    const value = given[name];
    // An empty Host is replaced by the service's (below), as http.request did: never two.
    if (value === undefined || (value === '' && name === 'host')) continue;
    if (typeof value === 'string') out.push(name, value);
    else for (const one of value) out.push(name, one);
  }
  // http.request adds Host itself only to headers given as an object.
  if (!given.host) out.push('host', defaultHost);
  if (state.ingestion) out.push(SOURCE_SECRET_HEADER, state.ingestion.secret);
  if (state.linkAction) out.push(ACTION_TOKEN_HEADER, state.linkAction.token);
  if (principal !== undefined) out.push(PRINCIPAL_HEADER, principal);
  const client = req.socket.remoteAddress ?? '';
  const prior = given['x-forwarded-for'];
  out.push('x-forwarded-for', prior ? `${prior}, ${client}` : client);
  out.push('x-forwarded-proto', (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  if (given.host) out.push('x-forwarded-host', given.host);
  return out;
}

/** What `ArrayBuffer.prototype.transfer` (ES2024, beyond this project's lib) adds to a buffer. */
type Detachable = ArrayBufferLike & { transfer?: (length: number) => ArrayBuffer };

/**
 * Frees a chunk of an answer once the client's socket has taken it. Node's HTTP client
 * copies each piece of a body into an ArrayBuffer of its own, outside V8's heap, which
 * only a garbage collection gives back: 60 kB list answers add up to V8's limit for such
 * memory every hundred-odd answers, and each time it runs a full mark-compact of the
 * whole heap. Detaching the buffer (`transfer(0)`) gives its memory back at once. Only a
 * chunk that spans its whole buffer is freed (a pooled slice shares one), never an empty
 * one (a detached buffer is empty, and detaching it again throws). The forwarder must be
 * the chunk's only owner: nothing may keep what it writes to `res` (a wrapper of `res.write`
 * that stores the chunks would find them emptied).
 */
function release(chunk: Buffer): void {
  const buffer: Detachable = chunk.buffer;
  if (chunk.byteLength === 0 || chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  try {
    buffer.transfer?.(0);
  } catch {
    // A buffer that cannot be detached (Node's pool, WebAssembly memory) waits for a collection,
    // as before; a throw here, in a write callback, would end the process.
  }
}

/**
 * Forwards a request to one service over a keep-alive agent and streams the answer back:
 * a plain `http.request` pipe with the duties a proxy has here — JSON:API errors for
 * upstream failures, the streaming body limit, the upstream timeout, and releasing the
 * upstream socket when the client goes away mid-response.
 */
export function createUpstreamForwarder(options: UpstreamForwarderOptions): RequestHandler {
  const { name, logger, bodyLimitBytes, timeoutMs, signer } = options;
  const url = new URL(options.baseUrl);
  const secure = url.protocol === 'https:';
  const request = secure ? https.request : http.request;
  const agent = secure ? options.agents.https : options.agents.http;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || (secure ? 443 : 80);
  const basePath = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  // The TLS server name the agent works out per request (an IP check of the host) when none
  // is given; plain HTTP has no use for it, HTTPS keeps the agent's (the host's name).
  const servername = secure ? undefined : '';
  // The Host http.request would add for a client that sent none (HTTP/1.0).
  const defaultHost = (hostname.includes(':') ? `[${hostname}]` : hostname) + (Number(port) === (secure ? 443 : 80) ? '' : `:${port}`);

  function fail(state: GatewayState, err: Error & { code?: string }, timedOut: boolean, req: IncomingMessage, res: http.ServerResponse) {
    if (state.failed) return;
    state.failed = true;
    logger.warn('upstream request failed', {
      request_id: requestIdOf(req),
      upstream: name,
      code: timedOut ? 'ETIMEDOUT' : err.code,
      error: err.message,
    });
    if (res.headersSent || !state.next) {
      res.destroy();
      return;
    }
    if (timedOut) state.next(new GatewayTimeoutError(`The ${name} service did not answer within ${timeoutMs} ms.`));
    else if (SERVICE_GONE.has(err.code ?? ''))
      state.next(new ServiceUnavailableError(`The ${name} service is unavailable. Try again shortly.`, { code: 'upstream_unavailable' }));
    else state.next(new BadGatewayError(`The ${name} service failed to answer.`));
  }

  return (req, res, next) => {
    const state = stateOf(req)!;
    state.next ??= next;
    // The body limit, in one place: a declared length is judged before anything is sent,
    // a streamed body as it arrives (below).
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > bodyLimitBytes) {
      res.setHeader('Connection', 'close');
      next(new PayloadTooLargeError(`The request body exceeds ${bodyLimitBytes} bytes.`));
      return;
    }
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    // The token is good for this service, this method and the path the service will see.
    const target = { audience: name, method: req.method ?? 'GET', path: basePath + (query === -1 ? url : url.slice(0, query)) };
    const { credential, ingestion, linkAction } = state;
    // An ingestion request's principal names only its source (docs/security.md, "Alert ingestion");
    // a link action has none: its token is the credential (docs/paging.md, "Notifications").
    const signed = linkAction
      ? Promise.resolve(undefined)
      : ingestion
        ? signer.sign({ kind: 'ingestion', source_id: ingestion.sourceId }, target, `ingest:${ingestion.sourceId}`)
        : signer.sign(credential!.principal, target, credential!.signKey);
    signed.then((principal) => send(req, res, state, basePath + url, requestHeaders(req, principal, state, defaultHost)), next);
  };

  function send(req: IncomingMessage, res: http.ServerResponse, state: GatewayState, path: string, headers: string[]) {
    // A client that left while its request was authenticated, counted or signed (the request
    // aborted) is not forwarded: no one takes the answer, and its address left with its socket
    // (X-Forwarded-For would be empty, and an ingestion 401 is counted against that address).
    // A bodyless request is ended at once below, so nothing else would stop it.
    if (req.destroyed) return;
    let timedOut = false;
    const span = openSpan(`forward ${name}`, { kind: SpanKind.CLIENT, attributes: { 'http.request.method': req.method ?? '' } });
    if (span.traceparent) headers.push('traceparent', span.traceparent);
    const upstream = request({ hostname, port, agent, method: req.method, path, headers, timeout: timeoutMs, servername });
    upstream.on('timeout', () => {
      timedOut = true;
      upstream.destroy(new Error(`no answer within ${timeoutMs} ms`));
    });
    upstream.on('error', (err) => {
      span.end(err);
      fail(state, err, timedOut, req, res);
    });
    upstream.on('response', (answer) => {
      span.setAttribute('http.response.status_code', answer.statusCode ?? 0);
      span.end();
      // An answer no one takes: an error was chosen, or the client left while the service worked
      // (its 'close', below, has passed; paused at its first failed write, the answer would hold
      // the service's connection until the timeout).
      if (state.failed || res.destroyed) {
        answer.destroy();
        return;
      }
      res.statusCode = answer.statusCode ?? 502;
      state.ingestion?.answered(res.statusCode, answer.headers);
      state.linkAction?.answered(res.statusCode);
      const given = answer.headers;
      for (const header in given) {
        const value = given[header];
        if (value !== undefined && !HOP_BY_HOP.has(header) && header !== INGEST_LIMIT_HEADER) res.setHeader(header, value);
      }
      answer.on('error', (err) => fail(state, err, false, req, res));
      // What answer.pipe(res) does, without the listeners a pipe adds to both and removes again:
      // the answer waits while the client's socket is full. A chunk is freed only when its
      // write has completed: until then the socket may still be sending from its memory.
      answer.on('data', (chunk: Buffer) => {
        const taken = res.write(chunk, (err) => {
          if (!err) release(chunk);
        });
        if (!taken) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => res.end());
      res.once('close', () => {
        if (!res.writableFinished) answer.destroy();
      });
    });

    const length = req.headers['content-length'];
    if (length === undefined && req.headers['transfer-encoding'] !== undefined) {
      req.on('data', (chunk: Buffer) => {
        state.received += chunk.length;
        if (state.received > bodyLimitBytes && !state.failed) {
          // The rest of the body is not read; closing the connection is the only way to be rid of it.
          state.failed = true;
          req.unpipe(upstream);
          upstream.destroy();
          if (!res.headersSent) res.setHeader('Connection', 'close');
          state.next?.(new PayloadTooLargeError(`The request body exceeds ${bodyLimitBytes} bytes.`));
        }
      });
    }
    // Nothing to stream without a body (a GET): the request ends with its headers.
    if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) upstream.end();
    else req.pipe(upstream);
  }
}
