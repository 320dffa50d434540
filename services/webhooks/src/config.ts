import { z } from 'zod';
import { apiServiceFields, env, keySeedFields, requireKeysOrDevSeed } from '@firewatch/config';
import { EVENT_QUEUES } from '@firewatch/events';

/**
 * Outside production the key sealing endpoint secrets and custom header values may be
 * derived from DEV_KEY_SEED; in production that would give whoever holds the seed every
 * receiver credential, so WEBHOOK_SECRET_KEYS must be set (docs/security.md, "No derived
 * keys in production"). The dispatcher, which opens what this service seals, applies the
 * same rule.
 */
export const requireSecretKeys = requireKeysOrDevSeed(
  ['WEBHOOK_SECRET_KEYS'],
  'comma-separated base64 32-byte keys, e.g. from `openssl rand -base64 32`',
);

export const configSchema = z
  .object({
    ...apiServiceFields(8085),
    BODY_LIMIT: z.string().default('1mb'),
    /** Accept http:// endpoint URLs (loopback receivers in development and tests). */
    WEBHOOK_ALLOW_HTTP: env.bool(false),
    /** The dispatcher's queue, declared here too so no event is dropped while no dispatcher runs. */
    WEBHOOK_QUEUE: z.string().min(1).default(EVENT_QUEUES['webhook-dispatcher'].queue),
    /** base64 32-byte keys sealing endpoint secrets and header values; the first seals. Unset: derived from DEV_KEY_SEED (not in production). */
    WEBHOOK_SECRET_KEYS: env.list(),
    /** Endpoints one team may have; every event fans out to each (docs/webhooks.md). */
    WEBHOOK_MAX_ENDPOINTS_PER_TEAM: env.int(50, 1),
    ...keySeedFields(),
  })
  // Runs even when other variables are wrong, so one start-up names every problem.
  .superRefine(requireSecretKeys, { when: () => true });

export type Config = z.infer<typeof configSchema>;
