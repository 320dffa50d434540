import { z } from 'zod';
import { jsonConfig, privateJwk, publicJwks } from './jwk-fields.js';
import { trustedProxies } from './trusted-proxies.js';

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
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
      ),
  /**
   * Comma-separated `name=value` pairs over `names` only, each name left out taking
   * `fallback(name)`. An unknown or repeated name, an empty value, or one value for two
   * names is refused.
   */
  distinctPairs: <N extends string>(names: readonly N[], fallback: (name: N) => string) =>
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        const map = Object.fromEntries(names.map((n) => [n, fallback(n)])) as Record<N, string>;
        const given = new Set<string>();
        for (const pair of (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const [name, value] = pair.split('=').map((s) => s.trim());
          if (!(names as readonly string[]).includes(name) || given.has(name) || !value || pair.split('=').length !== 2) {
            ctx.addIssue({
              code: 'custom',
              message: `"${pair}": each entry is name=value, once per name, names among ${names.join(', ')}`,
            });
            return z.NEVER;
          }
          given.add(name);
          map[name as N] = value;
        }
        const values = Object.values<string>(map);
        if (new Set(values).size !== values.length) {
          ctx.addIssue({ code: 'custom', message: 'two names may not share a value' });
          return z.NEVER;
        }
        return map;
      }),
  trustedProxies: () => trustedProxies,
  /** A private JWK (JSON) of an asymmetric key: OKP Ed25519 or EC P-256. */
  privateJwk: () => jsonConfig(privateJwk),
  /** A JWKS (JSON, or a single JWK) of public keys only: a private member is refused. */
  publicJwks: () => jsonConfig(publicJwks),
};
