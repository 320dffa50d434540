import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { getPrincipal, type Principal } from '@firewatch/auth';
import { BadRequestError, ConflictError, HttpError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import { createIdempotencyStore, type StoredAnswer } from './idempotency.store.js';

/** The request header that names a write's idempotency key. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Set (`true`) on an answer that is a replay of the key's first answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** Answers larger than this are not kept: no write of this API answers with nearly as much. */
export const MAX_KEPT_ANSWER_BYTES = 1024 * 1024;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
// The headers a replay repeats; the others (request id, dates) belong to the answer being sent.
const KEPT_HEADERS = ['content-type', 'location', 'etag'];

/** Options of {@link idempotencyMiddleware}. */
export interface IdempotencyOptions {
  /** The service's own database, whose `idempotency_keys` table (`idempotencyMigration`) holds the keys. */
  knex: Knex;
}

/** The credential a key belongs to: the same key of another credential is another key. */
function scopeOf(principal: Principal): string {
  const credential = principal.credential;
  const id = credential.type === 'api_key' ? credential.id : `${credential.client_id}:${principal.user_id ?? '-'}`;
  return `${principal.team_id}:${credential.type}:${id}`;
}

/** "The same request": method, path, query and body. */
function fingerprintOf(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const parts = [req.method, q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1), req.body ?? null];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/**
 * Collects what the handler writes and, before the answer leaves, hands it to `keep`, so
 * a client that has the answer finds it kept when it retries.
 */
function captureAnswer(res: Response, keep: (body: Buffer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, rest[0]));
    void keep(Buffer.concat(chunks)).finally(() => end(chunk, ...rest));
    return res;
  }) as Response['end'];
}

function replay(res: Response, answer: StoredAnswer & { body: Buffer }): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.end(answer.body);
}

/**
 * `Idempotency-Key` on `/v1` writes (docs/api-contract.md §2): the first answer is kept per
 * credential and key for 24 hours; a replay of the same request gets it again and does
 * nothing; the key with another request is a 422, and while the first still runs a 409.
 * Answers of 5xx are not kept, so a retry runs again. Runs after the principal check and
 * the body parser.
 */
export function idempotencyMiddleware(options: IdempotencyOptions, logger: Logger): RequestHandler {
  const store = createIdempotencyStore(options.knex);
  return (req, res, next) => {
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined || !WRITE_METHODS.has(req.method)) return next();
    const source = { header: IDEMPOTENCY_KEY_HEADER };
    if (!KEY_FORMAT.test(key))
      return next(
        new BadRequestError('Idempotency-Key must be 1 to 255 printable ASCII characters.', { code: 'invalid_idempotency_key', source }),
      );
    const scope = scopeOf(getPrincipal(req));
    const fingerprint = fingerprintOf(req);
    store
      .claim(scope, key, fingerprint)
      .then((found) => {
        if (found.kind !== 'claimed' && found.fingerprint !== fingerprint)
          throw new HttpError(422, 'Unprocessable Entity', 'idempotency_key_reused', {
            detail: 'This Idempotency-Key was used with another request (method, path, query or body); use a new key.',
            source,
          });
        if (found.kind === 'in_progress')
          throw new ConflictError('A request with this Idempotency-Key is still in progress; retry when it has answered.', {
            code: 'idempotency_key_in_use',
            source,
          });
        if (found.kind === 'answered') {
          const { answer } = found;
          if (answer.body !== null) return replay(res, { ...answer, body: answer.body });
          throw new ConflictError(
            'This Idempotency-Key was already answered, and that answer was not kept (it carried a secret or was too large).',
            {
              code: 'idempotency_answer_not_kept',
              source,
            },
          );
        }
        const { claim } = found;
        captureAnswer(res, async (body) => {
          try {
            if (res.statusCode >= 500) return await store.release(scope, key, claim);
            const headers: Record<string, string> = {};
            for (const name of KEPT_HEADERS) if (res.hasHeader(name)) headers[name] = String(res.getHeader(name));
            const secret = String(res.getHeader('cache-control') ?? '').includes('no-store');
            const kept = secret || body.length > MAX_KEPT_ANSWER_BYTES ? null : body;
            // The write has committed: a lost answer would let a retry after the abandon window
            // run it again, so a failed store is tried twice more before giving up.
            for (let attempt = 1; ; attempt += 1) {
              try {
                await store.complete(scope, key, claim, { status: res.statusCode, headers, body: kept });
                break;
              } catch (err) {
                if (attempt === 3) throw err;
                await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
              }
            }
          } catch (err) {
            // The answer still goes out; the key stays in progress until it counts as abandoned.
            logger.error('idempotency answer not stored', { error: err });
          }
        });
        next();
      })
      .catch(next);
  };
}
