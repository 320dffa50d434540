import { z } from 'zod';
import { env, serviceFields } from '@firewatch/config';

export const configSchema = z.object({
  ...serviceFields(8085),
  BODY_LIMIT: z.string().default('1mb'),
  /** Accept http:// endpoint URLs (loopback receivers in development and tests). */
  WEBHOOK_ALLOW_HTTP: env.bool(false),
  /** The dispatcher's queue, declared here too so no event is dropped while no dispatcher runs. */
  WEBHOOK_QUEUE: z.string().min(1).default('webhook-dispatcher'),
  /** base64 32-byte keys encrypting endpoint secrets; the first encrypts. Unset: derived from INTERNAL_TOKEN_SECRET. */
  WEBHOOK_SECRET_KEYS: env.list(),
  /** Endpoints one team may have; every event fans out to each (security review #18). */
  WEBHOOK_MAX_ENDPOINTS_PER_TEAM: env.int(50, 1),
});

export type Config = z.infer<typeof configSchema>;
