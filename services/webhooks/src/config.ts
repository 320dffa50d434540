import { z } from 'zod';
import { env } from '@firewatch/config';

export const configSchema = z.object({
  PORT: env.port(8085),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: env.url(),
  AMQP_URL: env.url(),
  INTERNAL_TOKEN_SECRET: env.secret(),
  LOG_LEVEL: env.logLevel(),
  DB_POOL_MAX: env.int(10, 1),
  BODY_LIMIT: z.string().default('1mb'),
  SHUTDOWN_GRACE_MS: env.int(10_000),
  /** Accept http:// endpoint URLs (loopback receivers in development and tests). */
  WEBHOOK_ALLOW_HTTP: env.bool(false),
  /** The dispatcher's queue, declared here too so no event is dropped while no dispatcher runs. */
  WEBHOOK_QUEUE: z.string().min(1).default('webhook-dispatcher'),
  /** base64 32-byte keys encrypting endpoint secrets; the first encrypts. Unset: derived from INTERNAL_TOKEN_SECRET. */
  WEBHOOK_SECRET_KEYS: env.list(),
});

export type Config = z.infer<typeof configSchema>;
