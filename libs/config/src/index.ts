import { isIP } from 'node:net';
import { z } from 'zod';

/** Raised when the environment does not satisfy a service's configuration schema. */
export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(
      'Invalid configuration: ' +
        issues.map((i) => `${i.variable}: ${i.message}`).join('; '),
    );
    this.name = 'ConfigError';
  }
}

/**
 * Parses `env` against a zod object whose keys are environment variable names.
 * Every problem is reported at once, each naming its variable, so an operator
 * fixes a deployment in one pass.
 */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
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

/**
 * Loads configuration or stops the process with a message naming each bad variable.
 * Intended for `main.ts`; libraries and tests call {@link loadConfig}.
 */
export function loadConfigOrExit<S extends z.ZodObject>(schema: S, service: string): z.infer<S> {
  try {
    return loadConfig(schema, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(
        JSON.stringify({ level: 'error', service, message: err.message, issues: err.issues }) + '\n',
      );
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/** Reusable field schemas for common variable shapes. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: () => z.url(),
  /** A secret of at least 32 characters; shorter ones are refused rather than padded. */
  secret: () => z.string().min(32, 'must be at least 32 characters'),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  logLevel: () => z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
  list: () =>
    z
      .string()
      .optional()
      .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
  trustedProxies: () => trustedProxies,
  /** A private JWK (JSON) of an asymmetric key: OKP Ed25519 or EC P-256. */
  privateJwk: () => jsonConfig(privateJwk),
  /** A JWKS (JSON, or a single JWK) of public keys only: a private member is refused. */
  publicJwks: () => jsonConfig(publicJwks),
};

const asymmetricJwk = z.looseObject({
  kty: z.enum(['OKP', 'EC'], { error: 'must be an OKP (Ed25519) or EC (P-256) key' }),
  crv: z.enum(['Ed25519', 'P-256'], { error: 'must be on the Ed25519 or P-256 curve' }),
  x: z.string().min(1),
  kid: z.string().min(1).optional(),
});
const privateJwk = asymmetricJwk
  .extend({ d: z.string().min(1, 'a private key needs its d member') })
  .refine((k) => k.kty !== 'EC' || typeof k.y === 'string', 'an EC key needs its y member');
const publicJwk = asymmetricJwk.refine((k) => !('d' in k), 'holds a private key: give only the public half');
const publicJwks = z.union([
  z.object({ keys: z.array(publicJwk).min(1) }),
  publicJwk.transform((k) => ({ keys: [k] })),
]);

/** A variable holding JSON, checked against `schema`. */
function jsonConfig<T extends z.ZodType>(schema: T) {
  return z.string().transform((text, ctx): z.infer<T> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: parsed.error.issues.map((i) => i.message).join('; ') });
    return z.NEVER;
  });
}

/** Names proxy-addr (Express's `trust proxy`) knows for whole ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops in front of a process may name the client in `X-Forwarded-For`: unset or
 * `false` trusts none (the socket address is the client); a whole number trusts that many
 * hops from the process outwards; otherwise a comma-separated list of addresses, CIDR
 * ranges or `loopback`/`linklocal`/`uniquelocal`. "Trust everything" is refused, because
 * it lets any client choose its own address. The value is what Express's `trust proxy`
 * setting takes.
 */
/** What Express's `trust proxy` takes: no hop, a hop count, or addresses and ranges. */
export type TrustedProxies = false | number | string[];

const trustedProxies = z
  .string()
  .optional()
  .transform((value, ctx): TrustedProxies => {
    const v = value?.trim().toLowerCase();
    if (v === undefined || v === 'false' || v === '0') return false;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count must be at most 10' });
      return z.NEVER;
    }
    if (v === 'true' || v === '*') {
      ctx.addIssue({ code: 'custom', message: 'trusting every hop lets clients choose their address; give a hop count or CIDR list' });
      return z.NEVER;
    }
    const entries = v.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (bad.length || entries.length === 0) {
      ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${bad.join(', ') || '(empty)'}` });
      return z.NEVER;
    }
    return entries;
  });

/**
 * The variables every domain service reads, to spread into its own schema:
 * `z.object({ ...serviceFields(8082), EXTRA: ... })`.
 */
export function serviceFields(defaultPort: number) {
  return {
    PORT: env.port(defaultPort),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: env.url(),
    AMQP_URL: env.url(),
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

/**
 * For services holding keys they could derive in development: `NODE_ENV` and
 * `DEV_KEY_SEED`, the seed those keys derive from when they are not configured.
 */
export function keySeedFields() {
  return {
    /** `production` requires every key to be configured: nothing is derived. */
    NODE_ENV: z.string().optional(),
    DEV_KEY_SEED: env.secret().optional(),
  };
}

function isSet(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '';
}

/**
 * A refinement for a schema with {@link keySeedFields}: in production each of `keys`
 * must be set, because a key derived from a seed gives whoever holds the seed what the
 * key protects; elsewhere an unset key needs `DEV_KEY_SEED` to derive it from. Pass it
 * to `superRefine(..., { when: () => true })` so it reports beside other problems.
 */
export function requireKeysOrDevSeed(keys: string[], hint: string) {
  return (config: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    const missing = keys.filter((k) => !isSet(config[k]));
    if (missing.length === 0) return;
    if (config.NODE_ENV === 'production') {
      for (const k of missing) ctx.addIssue({ code: 'custom', path: [k], message: `required when NODE_ENV=production (${hint})` });
    } else if (!isSet(config.DEV_KEY_SEED)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_KEY_SEED'],
        message: `required to derive ${missing.join(', ')} when they are not set (development only; ${hint})`,
      });
    }
  };
}
