import type { Logger } from '@firewatch/logger';
import type { SecretBox } from '@firewatch/secret-box';
import type { KeyObject } from 'node:crypto';
import { openHeaderValues, webhookHeaders, webhookSigningKey, type CustomHeader } from '@firewatch/webhooks/shared';
import { ATTEMPT_ERRORS } from './attempt-error.js';
import { nextTransition, type AttemptResult } from './attempt-outcome.js';
import type { RetryPolicy } from './retry-policy.js';
import type { ClaimedDelivery, JobOutcome } from './dispatch.types.js';

export const USER_AGENT = 'Firewatch-Webhooks/1.0';
const STORED_BODY_MAX = 4096;

export interface JobDeps {
  post(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult>;
  secretBox: SecretBox;
  retry: RetryPolicy;
  /** No new attempt starts once the job has run this long (the lease must outlast it plus one attempt). */
  budgetMs: number;
  stopping(): boolean;
  /** Gets what went wrong before a request could be made (e.g. a key missing from WEBHOOK_SECRET_KEYS). */
  logger?: Logger;
}

// The headers the dispatcher sets: a custom header of one of these names is left out (the
// webhooks service refuses them; the HTTP client sends its headers as a list, so nothing
// else would keep a row written around it from sending a second one).
const OWN_HEADERS = new Set([
  'content-type',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-length',
  'host',
]);

/** The request headers of one attempt (custom headers already opened): ours last, so nothing can override them. */
export function attemptHeaders(
  d: ClaimedDelivery,
  secret: string | KeyObject,
  custom: readonly CustomHeader[],
  now = new Date(),
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of custom) if (!OWN_HEADERS.has(h.name.toLowerCase())) headers[h.name] = h.value;
  return { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT, ...webhookHeaders(secret, d.id, d.payload, now) };
}

/**
 * Sends one endpoint's claimed deliveries one after another, in `seq` order. After a
 * failure the rest are released untouched (they are due again at once and are tried
 * next, so a failing delivery never holds back the ones behind it for longer than
 * one attempt); the failed one waits for its retry.
 */
export async function runDeliveryJob(group: ClaimedDelivery[], deps: JobDeps): Promise<JobOutcome> {
  const started = Date.now();
  const outcome: JobOutcome = {
    attempts: [],
    updates: [],
    released: [],
    endpoint: { id: group[0].endpoint_id, lastSucceeded: null, gone: false, firstFailureAt: null },
  };
  // Opened once per job (one endpoint), kept in memory only for its requests.
  let opened: { key: KeyObject; headers: CustomHeader[] } | null = null;
  for (let i = 0; i < group.length; i++) {
    const d = group[i];
    if (deps.stopping() || (i > 0 && Date.now() - started > deps.budgetMs)) {
      outcome.released.push(...group.slice(i).map((r) => ({ id: r.id, lease_token: r.lease_token })));
      break;
    }
    let result: AttemptResult;
    try {
      // The secret as a key object: each signature then costs a tenth of a Buffer key's.
      opened ??= {
        key: webhookSigningKey(deps.secretBox.open(d.secret_ciphertext)),
        headers: openHeaderValues(d.custom_headers, deps.secretBox),
      };
      result = await deps.post(d.url, attemptHeaders(d, opened.key, opened.headers), d.payload);
    } catch (err) {
      // Readers of the endpoint see the generic text; the operator sees the cause in the log.
      deps.logger?.error('webhook attempt not made', { endpoint_id: d.endpoint_id, delivery_id: d.id, error: (err as Error).message });
      result = { statusCode: null, durationMs: 0, responseBody: null, retryAfterMs: null, error: ATTEMPT_ERRORS.internal };
    }
    const now = new Date();
    const next = nextTransition(result, d.failures, deps.retry, now);
    outcome.attempts.push({
      delivery_id: d.id,
      attempt_number: d.attempt_count + 1,
      trigger: d.next_trigger,
      url: d.url,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      // PostgreSQL's text holds no NUL: a receiver's body with one made the attempt unstorable, and the delivery was resent forever.
      response_body: result.responseBody === null ? null : result.responseBody.slice(0, STORED_BODY_MAX).replaceAll('\u0000', '\uFFFD'),
      error: result.error,
    });
    outcome.updates.push({
      id: d.id,
      lease_token: d.lease_token,
      status: next.status,
      next_attempt_at: next.nextAttemptAt?.toISOString() ?? null,
      delivered_at: next.deliveredAt?.toISOString() ?? null,
      failures: next.failures,
      last_status_code: result.statusCode,
      last_error: result.error,
    });
    outcome.endpoint.lastSucceeded = next.succeeded;
    if (!next.succeeded) {
      outcome.endpoint.firstFailureAt ??= now.toISOString();
      outcome.endpoint.gone ||= next.disableEndpoint;
      outcome.released.push(...group.slice(i + 1).map((r) => ({ id: r.id, lease_token: r.lease_token })));
      break;
    }
  }
  return outcome;
}
