import express, { type RequestHandler, type Response } from 'express';
import { BadRequestError, NotAcceptableError, UnsupportedMediaTypeError } from '@firewatch/errors';

export const MEDIA_TYPE = 'application/vnd.api+json';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/vnd.api+json`, optionally with a charset; JSON:API forbids other parameters. */
function isJsonApiContentType(value: string): boolean {
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== MEDIA_TYPE) return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p.startsWith('ext=') || p.startsWith('profile='));
}

function acceptsJsonApi(accept: string): boolean {
  return accept.split(',').some((part) => {
    const [range] = part.split(';').map((s) => s.trim().toLowerCase());
    return range === MEDIA_TYPE || range === '*/*' || range === 'application/*';
  });
}

/**
 * 415 for a body in another media type, 406 when `Accept` rules out JSON:API.
 * Runs before the body parser so a refused body is never read.
 */
export function mediaTypeMiddleware(): RequestHandler {
  return (req, _res, next) => {
    const accept = req.headers.accept;
    if (accept && !acceptsJsonApi(accept)) return next(new NotAcceptableError());
    if (hasBody(req.headers)) {
      const type = req.headers['content-type'];
      if (!type || !isJsonApiContentType(type)) return next(new UnsupportedMediaTypeError());
    }
    next();
  };
}

/** How deep a request body may nest: deeper is no document of ours, and recursive checks would exhaust the stack. */
export const MAX_BODY_DEPTH = 64;

/** The nesting depth of a parsed JSON value, walked without recursion; stops once past `max`. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Strict JSON body parser for the JSON:API media type; a body nested deeper than {@link MAX_BODY_DEPTH} is a 400. */
export function jsonApiBody(limit: string | number = '1mb'): RequestHandler[] {
  const parse = express.json({ type: MEDIA_TYPE, limit, strict: true });
  return [
    (req, res, next) => {
      // Neither header: no body (node's parser reads none), which the parser would find
      // after its own checks and debug calls; it leaves `req.body` as it does then.
      if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) {
        if (!('body' in req)) (req as { body?: unknown }).body = undefined;
        return next();
      }
      return parse(req, res, next);
    },
    (req, _res, next) => {
      const body: unknown = req.body;
      if (body !== null && typeof body === 'object' && depthExceeds(body, MAX_BODY_DEPTH)) {
        return next(new BadRequestError(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`, { code: 'too_deep' }));
      }
      next();
    },
  ];
}

/**
 * Sends a JSON:API document. Written with `end` rather than express's `send`, which
 * would append `; charset=utf-8` (JSON:API forbids media type parameters other than
 * ext/profile) and hash the body for an ETag nobody asked for.
 */
export function sendDocument(res: Response, status: number, body: unknown): void {
  sendDocumentJson(res, status, JSON.stringify(body));
}

/** Sends a document already serialised (`JSON.stringify` of it), so a caller that hashed the text need not build it twice. */
export function sendDocumentJson(res: Response, status: number, json: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', MEDIA_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  // A string, not a Buffer: node sends the head and a string body in one write (a Buffer
  // body is a second chunk, so a writev), and the text is not copied into a Buffer first.
  res.end(json);
}

/**
 * Sends a document that carries a secret shown this once (an API key token, a client or
 * webhook secret): `no-store`, so no browser or intermediary cache keeps a copy.
 */
export function sendSecretDocument(res: Response, status: number, body: unknown): void {
  res.setHeader('Cache-Control', 'no-store');
  sendDocument(res, status, body);
}
