import { z } from 'zod';
import { env } from '@firewatch/config';

/** Environment of the auth process; a bad value stops start-up naming the variable. */
export const configSchema = z.object({
  PORT: env.port(8081),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: env.url(),
  // The outbox relay publishes this service's events there (api_key.*).
  AMQP_URL: env.url(),
  INTERNAL_TOKEN_SECRET: env.secret(),
  LOG_LEVEL: env.logLevel(),
  DB_POOL_MAX: env.int(10, 1),
  SHUTDOWN_GRACE_MS: env.int(10_000, 0),
});

export type AuthConfig = z.infer<typeof configSchema>;
