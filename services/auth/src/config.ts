import { z } from 'zod';
import { apiServiceFields, env, keySeedFields, requireKeysOrDevSeed } from '@firewatch/config';

const optionalText = () => z.string().min(1).optional();

/**
 * Outside production the OIDC signing and cookie keys may be derived from DEV_KEY_SEED
 * (docs/oauth.md, "Keys"); in production that would let anyone holding the seed sign ID
 * tokens and forge sessions, so both must be configured (docs/security.md, "Between
 * the processes").
 */
const requireOidcKeys = requireKeysOrDevSeed(['OIDC_JWKS', 'OIDC_COOKIE_KEYS'], 'generate them with `firewatch keys generate`');

/** Environment of the auth process; a bad value stops start-up naming the variable. */
export const configSchema = z
  .object({
    ...apiServiceFields(8081),
    /** Shared with the gateway only: authenticates its calls to `/internal`. */
    SYSTEM_TOKEN_SECRET: env.secret(),
    /** The OAuth issuer, `{auth_url}` without a path; defaults to http://localhost:PORT. */
    ISSUER_URL: env
      .url()
      .refine((u) => new URL(u).pathname === '/', 'must have no path')
      .optional(),
    /** Private signing keys as a JWKS (JSON); the first key signs. Unset: derived (dev only). */
    OIDC_JWKS: optionalText(),
    /** Cookie signing keys, comma-separated, newest first. Unset: derived (dev only). */
    OIDC_COOKIE_KEYS: env.list(),
    /** How long a rotated refresh token keeps working after its first use. */
    OAUTH_REFRESH_GRACE_SECONDS: env.int(10, 0),
    /** Dynamic registrations per hour per IP address (docs/api-contract.md §3.4). */
    OAUTH_REGISTRATIONS_PER_HOUR: env.int(10, 1),
    /** Days a dynamically registered client lives unless a user authorizes it. */
    OAUTH_UNUSED_CLIENT_DAYS: env.int(7, 1),
    /** Failed logins per account within 15 minutes that lock it (from every address). */
    OAUTH_LOGIN_ACCOUNT_FAILURES: env.int(5, 1),
    /** Failed logins per client address (any accounts) within 15 minutes. */
    OAUTH_LOGIN_ADDRESS_FAILURES: env.int(30, 1),
    /** The first account lock; each further one within a day doubles, up to an hour. */
    OAUTH_LOGIN_LOCK_SECONDS: env.int(60, 1),
    /** Password hashes (scrypt) computed at once; more wait briefly, then get 503. */
    OAUTH_PASSWORD_HASH_CONCURRENCY: env.int(2, 1),
    /** Shared state of the registration and login limits; unset = in-memory (one replica only). */
    REDIS_URL: env.url().optional(),
    REDIS_KEY_PREFIX: z.string().default('firewatch:'),
    /**
     * Proxies trusted for X-Forwarded-* (client address, scheme): unset/false = none, a hop
     * count (`1`) or addresses/CIDRs (`10.0.0.0/8,192.168.1.1`); `true` is refused.
     */
    TRUST_PROXY: env.trustedProxies(),
    /** Dynamically registered clients one team may have bound (authorized) at once. */
    OAUTH_CLIENTS_PER_TEAM: env.int(100, 1),
    ...keySeedFields(),
  })
  // Runs even when other variables are wrong, so one start-up names every problem.
  .superRefine(requireOidcKeys, { when: () => true });

export type AuthConfig = z.infer<typeof configSchema>;

/** The options of createOAuthServer that come straight from configuration. */
export function oauthServerSettings(config: AuthConfig) {
  return {
    jwks: config.OIDC_JWKS,
    cookieKeys: config.OIDC_COOKIE_KEYS,
    redisUrl: config.REDIS_URL,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    registrationsPerHour: config.OAUTH_REGISTRATIONS_PER_HOUR,
    trustProxy: config.TRUST_PROXY,
    unusedClientDays: config.OAUTH_UNUSED_CLIENT_DAYS,
    clientsPerTeam: config.OAUTH_CLIENTS_PER_TEAM,
    loginLimits: {
      accountFailures: config.OAUTH_LOGIN_ACCOUNT_FAILURES,
      addressFailures: config.OAUTH_LOGIN_ADDRESS_FAILURES,
      lockMs: config.OAUTH_LOGIN_LOCK_SECONDS * 1000,
    },
    passwordHashing: { concurrency: config.OAUTH_PASSWORD_HASH_CONCURRENCY },
  };
}
