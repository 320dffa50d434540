import { z } from 'zod';
import { apiServiceFields, env } from '@firewatch/config';
import { defaultBrokerUser, EVENT_QUEUES, PUBLISHING_SERVICES } from '@firewatch/events';

export const configSchema = z.object({
  ...apiServiceFields(8084),
  BODY_LIMIT: z.string().default('1mb'),
  /** Queue of auth's user events feeding the users read model (one per deployment). */
  USERS_QUEUE: z.string().min(1).default(EVENT_QUEUES['on-call'].queue),
  /** The broker user of each publishing service (`auth=firewatch-auth,...`); only auth's may feed the users read model. */
  AMQP_PUBLISHERS: env.distinctPairs(PUBLISHING_SERVICES, defaultBrokerUser),
  /** shift.started: how often the scheduler looks, how far back it catches up after downtime, when a start counts as late. */
  SHIFT_STARTED_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
  SHIFT_STARTED_CATCH_UP_HOURS: z.coerce.number().min(0).max(168).default(24),
  /** The largest payload an alert source may post (docs/on-call.md, "Ingestion"); the gateway's BODY_LIMIT_BYTES bounds it too. */
  INGEST_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(512 * 1024),
  SHIFT_STARTED_LATE_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
  // Heartbeats (docs/on-call.md, "Heartbeats"): how often expired heartbeats are looked for, and when an expiry noticed is late.
  HEARTBEAT_EXPIRY_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  HEARTBEAT_LATE_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
  // Alert re-trigger timers (docs/on-call.md, "Re-trigger"): how often due timers are looked for, and when one fired is late.
  ALERT_RETRIGGER_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  ALERT_RETRIGGER_LATE_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
});

export type Config = z.infer<typeof configSchema>;
