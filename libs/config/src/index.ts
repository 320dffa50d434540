import { z } from 'zod';
import { env } from './env.js';

/** Raised when the environment does not satisfy a service's configuration schema. */
export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super('Invalid configuration: ' + issues.map((i) => `${i.variable}: ${i.message}`).join('; '));
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` against a zod object whose keys are environment variable names.
 * Every problem is reported at once, each naming its variable, so an operator
 * fixes a deployment in one pass.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const source: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    // An empty variable means "unset": `FOO= node app` must not pass as a value.
    source[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(root)'),
        message: issue.message,
      })),
    );
  }
  return result.data;
}

/** Every problem `env` has against `schema`, each naming its variable; empty when it loads. */
export function configIssues(schema: z.ZodObject, env: NodeJS.ProcessEnv): ConfigError['issues'] {
  try {
    loadConfig(schema, env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}

/**
 * Loads configuration or stops the process with a message naming each bad variable.
 * Intended for `main.ts`; libraries and tests call {@link loadConfig}.
 */
export function loadConfigOrExit<S extends z.ZodObject>(schema: S, service: string): z.infer<S> {
  try {
    return loadConfig(schema, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(JSON.stringify({ level: 'error', service, message: err.message, issues: err.issues }) + '\n');
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/**
 * The variables every domain service reads, to spread into its own schema:
 * `z.object({ ...serviceFields(8082), EXTRA: ... })`.
 */
export function serviceFields(defaultPort: number) {
  return {
    PORT: env.port(defaultPort),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: env.url(),
    /** RabbitMQ as the service's own broker user: the event transport of production, compose and CI. */
    AMQP_URL: env.url().optional(),
    /**
     * The shared PostgreSQL events database, as the service's own role: the event transport
     * when `AMQP_URL` is not set (a machine with Node only; docs/decisions.md).
     */
    EVENTS_DATABASE_URL: env.url().optional(),
    LOG_LEVEL: env.logLevel(),
    DB_POOL_MAX: env.int(10, 1),
    SHUTDOWN_GRACE_MS: env.int(10_000),
  };
}

/**
 * The variables of a service that serves `/v1` behind the gateway: {@link serviceFields}
 * plus the gateway's public principal keys, with which it verifies, never signs.
 */
export function apiServiceFields(defaultPort: number) {
  return { ...serviceFields(defaultPort), PRINCIPAL_PUBLIC_KEYS: env.publicJwks() };
}

export { env } from './env.js';
export { keySeedFields, requireKeysOrDevSeed } from './key-seed.js';
export type { TrustedProxies } from './trusted-proxies.js';
