import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@firewatch/logger';
import {
  BadRequestError,
  type ErrorObject,
  HttpError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
} from './http-errors.js';

const MEDIA_TYPE = 'application/vnd.api+json';

/** Maps errors thrown by body parsers (which carry a `type`) to our family. */
function fromBodyParser(err: { type?: string; status?: number; expose?: boolean }): HttpError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new BadRequestError('The request body is not valid JSON.', { code: 'malformed_json' });
    case 'entity.too.large':
      return new PayloadTooLargeError();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError('The request body encoding or charset is not supported.');
    case 'request.aborted':
      return new BadRequestError('The request was aborted by the client.');
    default:
      // The client's own bytes that could not be read: a body that does not decompress as
      // its Content-Encoding says (zlib's error, typeless) or is shorter than its length.
      if (err.status === 400 && err.expose === true)
        return new BadRequestError('The request body could not be read as its headers describe it.', { code: 'unreadable_body' });
      return undefined;
  }
}

/** The router's refusal of a path parameter that is no valid percent-encoding (`%E0%A4%A`). */
function fromRouter(err: unknown): HttpError | undefined {
  if (err instanceof URIError && (err as { status?: number }).status === 400) {
    return new BadRequestError('The path holds a malformed percent-encoding.', { code: 'malformed_path' });
  }
  return undefined;
}

/**
 * PostgreSQL data exceptions (SQLSTATE class 22: out-of-range numbers, bad dates,
 * invalid text) are caused by values a client sent that validation let through.
 * They are answered 400 rather than 500; validation should catch them first, so
 * they are logged as warnings to be fixed there.
 */
function fromDatabase(err: { code?: unknown; severity?: unknown }): HttpError | undefined {
  if (typeof err.code === 'string' && /^22[0-9A-Z]{3}$/.test(err.code) && err.severity !== undefined) {
    return new BadRequestError('A value in the request is not valid for its field.', { code: 'invalid_value' });
  }
  return undefined;
}

export function toErrorDocument(err: HttpError): { errors: ErrorObject[] } | typeof RateLimitedError.BODY {
  return err instanceof RateLimitedError ? RateLimitedError.BODY : { errors: err.toErrorObjects() };
}

/**
 * The one place errors become HTTP answers. Client errors are answered as they are;
 * anything else is logged with the request id and answered as a bare 500.
 */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let httpError: HttpError;
    if (err instanceof HttpError) httpError = err;
    else httpError = fromBodyParser(err ?? {}) ?? fromRouter(err) ?? fromDatabase(err ?? {}) ?? new InternalServerError();
    if (!(err instanceof HttpError) && httpError.code === 'invalid_value') {
      logger.warn('database refused a value that validation accepted', { path: req.path, sqlstate: err.code, error: err.message });
    }

    if (httpError.status >= 500) {
      logger.error('request failed', {
        request_id: (req as { id?: string }).id,
        method: req.method,
        path: req.path,
        status: httpError.status,
        error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
      });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
    const payload = Buffer.from(JSON.stringify(toErrorDocument(httpError)));
    res.statusCode = httpError.status;
    res.setHeader('Content-Type', httpError instanceof RateLimitedError ? 'application/json' : MEDIA_TYPE);
    res.setHeader('Content-Length', payload.length);
    res.end(payload);
  };
}

/** The fall-through handler: no route matched. */
export function notFoundMiddleware(): RequestHandler {
  return (req, _res, next) => next(new NotFoundError(`No route for ${req.method} ${req.path}.`, { code: 'route_not_found' }));
}
