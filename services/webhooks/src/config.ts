import { z } from 'zod';
import { requireSecretKeysInProduction } from './secret-keys.rule.js';
import { env, apiServiceFields } from '@firewatch/config';

export const configSchema = z.object({
  ...apiServiceFields(8085),
  BODY_LIMIT: z.string().default('1mb'),
  /** Accept http:// endpoint URLs (loopback receivers in development and tests). */
  WEBHOOK_ALLOW_HTTP: env.bool(false),
  /** The dispatcher's queue, declared here too so no event is dropped while no dispatcher runs. */
  WEBHOOK_QUEUE: z.string().min(1).default('webhook-dispatcher'),
  /** base64 32-byte keys sealing endpoint secrets and header values; the first seals. Unset: derived from INTERNAL_TOKEN_SECRET (not in production). */
  WEBHOOK_SECRET_KEYS: env.list(),
  /** Endpoints one team may have; every event fans out to each (security review #18). */
  WEBHOOK_MAX_ENDPOINTS_PER_TEAM: env.int(50, 1),
  /** `production` requires WEBHOOK_SECRET_KEYS instead of a key derived from a shared secret. */
  NODE_ENV: z.string().optional(),
})
  // Runs even when other variables are wrong, so one start-up names every problem.
  .superRefine(requireSecretKeysInProduction, { when: () => true });

export type Config = z.infer<typeof configSchema>;
