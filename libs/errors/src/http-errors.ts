/** One entry of a JSON:API `errors` array. */
export interface ErrorObject {
  status: string;
  code: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string; header?: string };
}

export interface HttpErrorOptions {
  detail?: string;
  source?: ErrorObject['source'];
  code?: string;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The root of every error that maps to an HTTP answer. Anything thrown that is not
 * an HttpError is a 500 whose details never leave the process.
 */
export class HttpError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly source?: ErrorObject['source'];
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly title: string,
    defaultCode: string,
    options: HttpErrorOptions = {},
  ) {
    super(options.detail ?? title, { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? defaultCode;
    this.detail = options.detail;
    this.source = options.source;
    this.headers = options.headers ?? {};
  }

  /** The JSON:API error objects this error answers with. */
  toErrorObjects(): ErrorObject[] {
    const obj: ErrorObject = { status: String(this.status), code: this.code, title: this.title };
    if (this.detail !== undefined) obj.detail = this.detail;
    if (this.source !== undefined) obj.source = this.source;
    return [obj];
  }
}

export class BadRequestError extends HttpError {
  constructor(detail: string, options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(400, 'Bad Request', 'bad_request', { ...options, detail });
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail = 'A valid bearer credential is required.', options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(401, 'Unauthorized', 'unauthorized', {
      ...options,
      detail,
      headers: { 'WWW-Authenticate': 'Bearer realm="firewatch"', ...options.headers },
    });
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail = 'The credential is not permitted to do this.', options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(403, 'Forbidden', 'forbidden', { ...options, detail });
  }
}

export class NotFoundError extends HttpError {
  constructor(detail = 'The resource does not exist.', options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(404, 'Not Found', 'not_found', { ...options, detail });
  }
}

export class ConflictError extends HttpError {
  constructor(detail: string, options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(409, 'Conflict', 'conflict', { ...options, detail });
  }
}

export class NotAcceptableError extends HttpError {
  constructor(detail = 'The Accept header must allow application/vnd.api+json.') {
    super(406, 'Not Acceptable', 'not_acceptable', { detail, source: { header: 'Accept' } });
  }
}

/**
 * 412: the request's `If-Match` names no current entity tag of the record (another write
 * came first); the write changed nothing.
 */
export class PreconditionFailedError extends HttpError {
  constructor(detail = 'The record has changed since the entity tag in If-Match was issued; read it again.') {
    super(412, 'Precondition Failed', 'precondition_failed', { detail, source: { header: 'If-Match' } });
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(detail = 'The request body is too large.') {
    super(413, 'Payload Too Large', 'payload_too_large', { detail });
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(detail = 'Request bodies must be sent as application/vnd.api+json.') {
    super(415, 'Unsupported Media Type', 'unsupported_media_type', { detail, source: { header: 'Content-Type' } });
  }
}

/** One failed rule of a request document, located by JSON pointer. */
export interface ValidationIssue {
  pointer: string;
  detail: string;
  code?: string;
  /**
   * Further members of the error object, for 422 shapes the reference defines beyond
   * JSON:API (a bulk upsert's `index`, `external_id`, `errors`). They cannot replace
   * the JSON:API members.
   */
  members?: Record<string, unknown>;
}

/** 422: the document is well-formed but breaks the resource's rules; one error per issue. */
export class ValidationError extends HttpError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, 'Unprocessable Entity', 'invalid', { detail: issues.map((i) => i.detail).join('; ') });
  }

  override toErrorObjects(): ErrorObject[] {
    return this.issues.map((issue) => ({
      ...issue.members,
      status: '422',
      code: issue.code ?? 'invalid',
      title: 'Unprocessable Entity',
      detail: issue.detail,
      source: { pointer: issue.pointer },
    }));
  }
}

/** 429 with the specification's body, which is not a JSON:API document. */
export class RateLimitedError extends HttpError {
  static readonly BODY = { error: 'Rate limit exceeded. Try again later.' };
  constructor(headers: Record<string, string> = {}) {
    super(429, 'Too Many Requests', 'rate_limited', { detail: RateLimitedError.BODY.error, headers });
  }
}

export class InternalServerError extends HttpError {
  constructor(detail = 'Something went wrong on our side. The request id identifies it in our logs.') {
    super(500, 'Internal Server Error', 'internal_error', { detail });
  }
}

export class BadGatewayError extends HttpError {
  constructor(detail = 'The upstream service answered with an error.') {
    super(502, 'Bad Gateway', 'bad_gateway', { detail });
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(detail = 'The service is unavailable. Try again shortly.', options: Omit<HttpErrorOptions, 'detail'> = {}) {
    super(503, 'Service Unavailable', 'service_unavailable', { ...options, detail });
  }
}

export class GatewayTimeoutError extends HttpError {
  constructor(detail = 'The upstream service did not answer in time.') {
    super(504, 'Gateway Timeout', 'gateway_timeout', { detail });
  }
}
