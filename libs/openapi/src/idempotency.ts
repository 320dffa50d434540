import { errorResponses } from './components.js';
import { listOperations } from './operations.js';
import type { Json, OpenApiDocument } from './openapi.types.js';

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** The optional `Idempotency-Key` request header of every `/v1` write. */
const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  description:
    'Makes a retry safe: the first answer is kept for 24 hours per credential and key, and the same request with the same key gets it again (`Idempotent-Replayed: true`) and changes nothing. The key with another method, path, query or body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`. 5xx answers are not kept.',
};

/** The 409 and 422 an `Idempotency-Key` can answer, worded beside the operation's own. */
const KEY_ANSWERS: Record<string, string> = {
  '409':
    '`idempotency_key_in_use`: a request with this Idempotency-Key still runs; `idempotency_answer_not_kept`: it was answered with a secret, which is not kept',
  '422': '`idempotency_key_reused`: this Idempotency-Key was used with another request',
};

/**
 * Declares `Idempotency-Key` on every write of `document` (the service shell honours it on
 * each one): the header parameter, and its 409 and 422 beside the operation's own.
 */
export function declareIdempotentWrites(document: Pick<OpenApiDocument, 'paths'>): void {
  for (const { method, operation } of listOperations(document)) {
    if (!WRITES.has(method)) continue;
    operation.parameters = [...((operation.parameters as Json[] | undefined) ?? []), IDEMPOTENCY_KEY];
    const responses = (operation.responses ??= {}) as Record<string, Json>;
    for (const [status, why] of Object.entries(KEY_ANSWERS)) {
      const own = responses[status];
      responses[status] = own
        ? { ...own, description: `${String(own.description)}; or ${why}` }
        : { ...(errorResponses(Number(status))[status] as Json), description: why };
    }
  }
}
