import { z } from 'zod';
import { apiServiceFields, env } from '@firewatch/config';
import { defaultBrokerUser, EVENT_QUEUES, PUBLISHING_SERVICES } from '@firewatch/events';

const TWILIO = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Mistakes that would otherwise only show as pages nobody can use: one or two of Twilio's
 * three settings (SMS and calls then skipped on every page), and in production a channel
 * on while PUBLIC_URL still points at this machine (every link in a page leads nowhere).
 */
function checkNotifications(config: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const twilio = TWILIO.filter((k) => config[k] !== undefined);
  if (twilio.length > 0 && twilio.length < TWILIO.length)
    for (const k of TWILIO.filter((k) => config[k] === undefined))
      ctx.addIssue({ code: 'custom', path: [k], message: `required with ${twilio.join(' and ')}: Twilio needs all three` });
  const channelOn = config.SMTP_URL !== undefined || twilio.length === TWILIO.length;
  if (config.NODE_ENV === 'production' && channelOn && LOCAL_HOSTS.has(new URL(String(config.PUBLIC_URL)).hostname))
    ctx.addIssue({
      code: 'custom',
      path: ['PUBLIC_URL'],
      message: "required when NODE_ENV=production and a channel is on: the gateway's address as people reach it",
    });
}

export const configSchema = z
  .object({
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
    // Paging (docs/paging.md, "The paging engine"): how often due steps and due notifications are looked for, when a step is late, and
    // how long a replica may take to send one notification before another takes it over.
    PAGING_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
    PAGING_LATE_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
    NOTIFICATION_SEND_INTERVAL_MS: z.coerce.number().int().min(50).default(250),
    NOTIFICATION_SEND_LEASE_MS: z.coerce.number().int().min(1000).default(120_000),
    /** The send job's own database connections (claims, action links, outcomes), apart from DB_POOL_MAX: a busy intake does not queue its queries. */
    NOTIFICATION_DB_POOL_MAX: env.int(3, 1),
    // Notifications (docs/paging.md, "Notifications"): each channel is off until configured.
    /** `smtp://user:pass@host:port` (or `smtps://`); unset: email is skipped. */
    SMTP_URL: env.url().optional(),
    SMTP_FROM: z.string().min(3).default('Firewatch <firewatch@localhost>'),
    /** SMTP connections a replica keeps open, each carrying one message at a time (nodemailer's `maxConnections`). */
    SMTP_POOL_SIZE: env.int(10, 1),
    TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    /** E.164, e.g. +15005550006; SMS and voice are skipped unless the three Twilio settings are set. */
    TWILIO_FROM_NUMBER: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number, e.g. +15005550006')
      .optional(),
    /** Twilio's REST API base URL; another only for a stand-in. */
    TWILIO_API_URL: env.url().default('https://api.twilio.com'),
    /** How long a provider may take to answer one notification. */
    NOTIFICATION_TIMEOUT_MS: env.int(10_000, 100),
    /** The gateway's public URL, which the links in emails, SMS and calls start with. */
    PUBLIC_URL: env
      .url()
      .default('http://localhost:8080')
      .transform((v) => v.replace(/\/+$/, '')),
    /** How long an action link works. */
    PAGING_LINK_TTL_HOURS: z.coerce.number().min(0.1).max(168).default(24),
    NODE_ENV: z.string().optional(),
  })
  .superRefine(checkNotifications);

export type Config = z.infer<typeof configSchema>;
