import type { Knex } from 'knex';
import { createEventTransport, EVENT_QUEUES } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import type { DeliveryRecorder } from '@firewatch/metrics';
import { createSecretBox } from '@firewatch/secret-box';
import { createTraceMemo, SpanKind, tracingEnabled, withSpan } from '@firewatch/tracing';
import type { Config } from './config.js';
import { createDispatchRepository } from './data/dispatch.repository.js';
import { createIntakeRepository } from './data/intake.repository.js';
import { createRetentionRepository } from './data/retention.repository.js';
import { createAddressPolicy } from './domain/address-policy.js';
import { runDeliveryJob } from './domain/delivery-job.js';
import { createDispatchLoop } from './domain/dispatch-loop.js';
import type { JobOutcome } from './domain/dispatch.types.js';
import { createRetentionJob } from './domain/retention-job.js';
import { createWebhookHttpClient } from './outbound/webhook-http.client.js';
import { createEventIntake } from './queue/event-intake.js';

export type DispatcherConfig = Pick<
  Config,
  | 'AMQP_URL'
  | 'EVENTS_DATABASE_URL'
  | 'AMQP_PUBLISHERS'
  | 'DEV_KEY_SEED'
  | 'WEBHOOK_QUEUE'
  | 'WEBHOOK_PREFETCH'
  | 'WEBHOOK_ALLOW_HTTP'
  | 'WEBHOOK_ALLOWED_NETWORKS'
  | 'WEBHOOK_SECRET_KEYS'
  | 'WEBHOOK_RETRY_SCHEDULE_MS'
  | 'WEBHOOK_RETRY_JITTER'
  | 'WEBHOOK_RETRY_AFTER_MAX_MS'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_RESPONSE_MAX_BYTES'
  | 'WEBHOOK_DISABLE_AFTER_MS'
  | 'WEBHOOK_CONCURRENCY'
  | 'WEBHOOK_CLAIM_BATCH'
  | 'WEBHOOK_POLL_INTERVAL_MS'
  | 'WEBHOOK_RETENTION_DAYS'
  | 'WEBHOOK_PRUNE_INTERVAL_MS'
>;

/**
 * Least time between two intake batches' starts: under a steady stream of events their
 * INSERT, commit and ack are shared by those of this interval, which each wait at most
 * this long more (an event after a quiet interval is written at once).
 */
const INTAKE_INTERVAL_MS = 25;

/** Each attempt of a job, by what became of its delivery (the update at the same index). */
function recordAttempts(outcome: JobOutcome, recorder: DeliveryRecorder): void {
  outcome.attempts.forEach((attempt, i) => {
    const status = outcome.updates[i]?.status;
    recorder.attempt(
      status === 'delivered' ? 'delivered' : status === 'pending' ? 'retrying' : 'failed',
      attempt.status_code,
      attempt.duration_ms / 1000,
    );
  });
}

/** The event id of a delivery body (`{"event":{"id":…}}`), read only while tracing is on. */
function tracedEventId(body: string): string | undefined {
  if (!tracingEnabled()) return undefined;
  try {
    return (JSON.parse(body) as { event?: { id?: string } }).event?.id;
  } catch {
    return undefined;
  }
}

/**
 * Wires the dispatcher: the queue consumer stores deliveries, the loop sends them.
 * A lease covers a job's attempt budget (one timeout) plus its last attempt (another
 * timeout) plus a margin, so a live job always finishes inside its lease.
 */
export function createDispatcher(config: DispatcherConfig, deps: { knex: Knex; logger: Logger; deliveries?: DeliveryRecorder }) {
  const { knex, logger } = deps;
  const secretBox = createSecretBox({ keys: config.WEBHOOK_SECRET_KEYS, devKeySeed: config.DEV_KEY_SEED });
  const post = createWebhookHttpClient({
    policy: createAddressPolicy(config.WEBHOOK_ALLOWED_NETWORKS),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: config.WEBHOOK_RESPONSE_MAX_BYTES,
    logger,
  });
  const retry = {
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
    jitter: config.WEBHOOK_RETRY_JITTER,
    maxRetryAfterMs: config.WEBHOOK_RETRY_AFTER_MAX_MS,
  };
  const repository = createDispatchRepository(knex, { disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS });
  const allowedSchemes = config.WEBHOOK_ALLOW_HTTP ? ['https:', 'http:'] : ['https:'];
  // A delivery row keeps no trace context: an attempt continues its event's consume span while this process remembers it.
  const traces = createTraceMemo();

  const loop = createDispatchLoop({
    repository,
    logger,
    concurrency: config.WEBHOOK_CONCURRENCY,
    claimBatch: config.WEBHOOK_CLAIM_BATCH,
    leaseMs: 2 * config.WEBHOOK_TIMEOUT_MS + 5_000,
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    runJob: async (group) => {
      const outcome = await runDeliveryJob(group, {
        post: (url, headers, body) => {
          const scheme = post.protocolOf(url);
          if (!allowedSchemes.includes(scheme)) {
            return Promise.resolve({
              statusCode: null,
              durationMs: 0,
              responseBody: null,
              retryAfterMs: null,
              error: `${scheme} URLs are not allowed (WEBHOOK_ALLOW_HTTP)`,
            });
          }
          const eventId = tracedEventId(body);
          return withSpan(
            'webhook delivery',
            {
              kind: SpanKind.CLIENT,
              parent: eventId === undefined ? undefined : traces.parentOf(eventId),
              attributes: { 'firewatch.event_id': eventId ?? '' },
            },
            () => post(url, headers, body),
          );
        },
        secretBox,
        retry,
        budgetMs: config.WEBHOOK_TIMEOUT_MS,
        stopping: () => loop.stopping,
        logger,
      });
      if (deps.deliveries) recordAttempts(outcome, deps.deliveries);
      return outcome;
    },
  });

  const retention = createRetentionJob({
    prune: createRetentionRepository(knex).prune,
    retentionDays: config.WEBHOOK_RETENTION_DAYS,
    intervalMs: config.WEBHOOK_PRUNE_INTERVAL_MS,
    logger,
  });

  const intake = createEventIntake({
    repository: createIntakeRepository(knex),
    logger,
    maxBatch: config.WEBHOOK_PREFETCH,
    minIntervalMs: INTAKE_INTERVAL_MS,
    onStored: (stored) => loop.wakeFor(stored.endpointIds),
  });
  const consumer = createEventTransport(config).consume({
    logger,
    queue: config.WEBHOOK_QUEUE,
    bindings: EVENT_QUEUES['webhook-dispatcher'].bindings,
    prefetch: config.WEBHOOK_PREFETCH,
    publishers: config.AMQP_PUBLISHERS,
    handler: (envelope) => {
      traces.remember(envelope.id);
      return intake.handle(envelope);
    },
  });

  return {
    async start() {
      loop.start();
      retention.start();
      await consumer.start();
    },
    async stop() {
      await consumer.stop();
      await intake.idle();
      await loop.stop();
      await retention.stop();
      post.close();
    },
    get consuming() {
      return consumer.connected;
    },
    stats: loop.stats,
    retention,
  };
}
