import { z } from 'zod';
import { env, keySeedFields, serviceFields } from '@firewatch/config';
import { defaultBrokerUser, EVENT_QUEUES, PUBLISHING_SERVICES } from '@firewatch/events';
import { requireSecretKeys } from '@firewatch/webhooks/shared';
import { DEFAULT_RETRY_SCHEDULE_MS } from './domain/retry-policy.js';

const msList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return [...DEFAULT_RETRY_SCHEDULE_MS];
    const parts = v.split(',').map((s) => Number(s.trim()));
    if (parts.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'must be comma-separated non-negative integers (milliseconds)' });
      return z.NEVER;
    }
    return parts;
  });

export const configSchema = z
  .object({
    ...serviceFields(8086),
    WEBHOOK_QUEUE: z.string().min(1).default(EVENT_QUEUES['webhook-dispatcher'].queue),
    /** The broker user of each publishing service (`auth=firewatch-auth,...`); an event is delivered only when its owner's user published it. */
    AMQP_PUBLISHERS: env.distinctPairs(PUBLISHING_SERVICES, defaultBrokerUser),
    /** Unacknowledged events this replica holds (and writes per batch). */
    WEBHOOK_PREFETCH: env.int(500, 1),
    /** Allow http:// endpoint URLs (tests, local receivers). */
    WEBHOOK_ALLOW_HTTP: env.bool(false),
    /** CIDRs exempt from the refusal of private, loopback and link-local addresses. */
    WEBHOOK_ALLOWED_NETWORKS: env.list(),
    /** Keys opening endpoint secrets and header values (see the webhooks service); required in production. */
    WEBHOOK_SECRET_KEYS: env.list(),
    /** Delays before retry 1..n; the default is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
    WEBHOOK_RETRY_SCHEDULE_MS: msList,
    WEBHOOK_RETRY_JITTER: z.coerce.number().min(0).max(1).default(0.2),
    WEBHOOK_RETRY_AFTER_MAX_MS: env.int(36_000_000),
    WEBHOOK_TIMEOUT_MS: env.int(15_000, 100),
    WEBHOOK_RESPONSE_MAX_BYTES: env.int(65_536, 0),
    /** An endpoint whose every attempt failed for this long is disabled (default 5 days). */
    WEBHOOK_DISABLE_AFTER_MS: env.int(432_000_000, 0),
    WEBHOOK_CONCURRENCY: env.int(64, 1),
    WEBHOOK_CLAIM_BATCH: env.int(100, 1),
    WEBHOOK_POLL_INTERVAL_MS: env.int(250, 10),
    /** Deliveries and their attempts older than this many days are deleted. */
    WEBHOOK_RETENTION_DAYS: env.int(30, 1),
    /** How often each replica looks for deliveries past retention (default hourly). */
    WEBHOOK_PRUNE_INTERVAL_MS: env.int(3_600_000, 1000),
    ...keySeedFields(),
  })
  // Runs even when other variables are wrong, so one start-up names every problem.
  .superRefine(requireSecretKeys, { when: () => true });

export type Config = z.infer<typeof configSchema>;
