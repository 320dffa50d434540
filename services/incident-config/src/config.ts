import { z } from 'zod';
import { env } from '@firewatch/config';

export const configSchema = z.object({
  PORT: env.port(8082),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: env.url(),
  AMQP_URL: env.url(),
  INTERNAL_TOKEN_SECRET: env.secret(),
  LOG_LEVEL: env.logLevel(),
  DB_POOL_MAX: env.int(10, 1),
  BODY_LIMIT: z.string().default('1mb'),
  SHUTDOWN_GRACE_MS: env.int(10_000),
});

export type Config = z.infer<typeof configSchema>;
