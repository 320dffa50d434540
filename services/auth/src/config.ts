import { z } from 'zod';
import { env, serviceFields } from '@firewatch/config';

const optionalText = () => z.string().min(1).optional();

/** Environment of the auth process; a bad value stops start-up naming the variable. */
export const configSchema = z.object({
  ...serviceFields(8081),
  /** The OAuth issuer, `{auth_url}` without a path; defaults to http://localhost:PORT. */
  ISSUER_URL: env.url().refine((u) => new URL(u).pathname === '/', 'must have no path').optional(),
  /** Private signing keys as a JWKS (JSON); the first key signs. Unset: derived (dev only). */
  OIDC_JWKS: optionalText(),
  /** Cookie signing keys, comma-separated, newest first. Unset: derived (dev only). */
  OIDC_COOKIE_KEYS: env.list(),
  /** How long a rotated refresh token keeps working after its first use. */
  OAUTH_REFRESH_GRACE_SECONDS: env.int(10, 0),
  /** Dynamic registrations per hour per IP address (spec 5.3.6). */
  OAUTH_REGISTRATIONS_PER_HOUR: env.int(10, 1),
  /** Shared registration rate-limit state; unset = in-memory (one replica only). */
  REDIS_URL: env.url().optional(),
  REDIS_KEY_PREFIX: z.string().default('firewatch:'),
  /** Behind a TLS-terminating proxy: trust X-Forwarded-* (issuer scheme, client IP). */
  TRUST_PROXY: env.bool(false),
});

export type AuthConfig = z.infer<typeof configSchema>;
