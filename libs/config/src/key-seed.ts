import { z } from 'zod';
import { env } from './env.js';

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
