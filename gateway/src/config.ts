import { z } from 'zod';
import { env, loadConfig } from '@firewatch/config';

/** An upstream base URL without a trailing slash; unset means "not deployed". */
const optionalUrl = () =>
  env
    .url()
    .optional()
    .transform((v) => (v === undefined ? undefined : v.replace(/\/+$/, '')));

export const gatewayConfigSchema = z.object({
  PORT: env.port(8080),
  HOST: z.string().default('0.0.0.0'),
  /** The private key principals are signed with; the services hold only its public half. */
  PRINCIPAL_SIGNING_KEY: env.privateJwk(),
  /** Shared with the auth service only: authenticates the gateway's credential look-ups. */
  SYSTEM_TOKEN_SECRET: env.secret(),
  AUTH_SERVICE_URL: env.url().transform((v) => v.replace(/\/+$/, '')),
  INCIDENT_CONFIG_URL: optionalUrl(),
  COMMUNICATIONS_URL: optionalUrl(),
  ON_CALL_URL: optionalUrl(),
  WEBHOOKS_URL: optionalUrl(),
  REDIS_URL: env.url().optional(),
  /** Prefix of every rate-limit key, so deployments (or test systems) sharing a Redis stay apart. */
  REDIS_KEY_PREFIX: z.string().min(1).default('firewatch:rl:'),
  RATE_LIMIT_READS: env.int(5, 1),
  RATE_LIMIT_WRITES: env.int(3, 1),
  RATE_LIMIT_WINDOW_SECONDS: env.int(60, 1),
  /** Shared by every personal key and OAuth token of one user. */
  RATE_LIMIT_USER_READS: env.int(10, 1),
  RATE_LIMIT_USER_WRITES: env.int(6, 1),
  /** Shared by every credential of one team. */
  RATE_LIMIT_TEAM_READS: env.int(50, 1),
  RATE_LIMIT_TEAM_WRITES: env.int(30, 1),
  /** Payloads one alert source (with one secret) may post per window at /ingest (docs/on-call.md, "Ingestion"). */
  RATE_LIMIT_INGEST: env.int(1200, 1),
  /** Requests one client address may make per window to the alert action links (docs/paging.md, "Notifications"). */
  RATE_LIMIT_ALERT_ACTIONS: env.int(60, 1),
  CREDENTIAL_CACHE_TTL_MS: env.int(3000, 0),
  /** Unknown credentials a client address may present per window before its uncached tokens get 429. */
  AUTH_FAILURES_PER_WINDOW: env.int(60, 1),
  /** Proxies in front of the gateway whose X-Forwarded-For names the client (hop count or CIDRs). */
  TRUSTED_PROXIES: env.trustedProxies(),
  BODY_LIMIT_BYTES: env.int(1_048_576, 1),
  UPSTREAM_TIMEOUT_MS: env.int(30_000, 1),
  /** `/metrics` readable by anyone who reaches the gateway; off by default (docs/operations.md). */
  METRICS_PUBLIC: env.bool(false),
  /** Otherwise the bearer token a scraper presents for `/metrics`; unset with METRICS_PUBLIC off: no `/metrics` here. */
  METRICS_TOKEN: env.secret().optional(),
  // `http` by default so every request leaves an access-log line; `info` silences them.
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
  SHUTDOWN_GRACE_MS: env.int(10_000, 0),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/** Parses a given environment; tests build configurations with it. */
export function parseGatewayConfig(source: NodeJS.ProcessEnv): GatewayConfig {
  return loadConfig(gatewayConfigSchema, source);
}
