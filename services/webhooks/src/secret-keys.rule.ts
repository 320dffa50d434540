import type { z } from 'zod';

/**
 * Outside production the key sealing endpoint secrets and custom header values may be
 * derived from INTERNAL_TOKEN_SECRET; in production that would give whoever holds that
 * secret every receiver credential (and rotating it would orphan them), so
 * WEBHOOK_SECRET_KEYS must be set (security review #7). Shared by the webhooks service
 * and the dispatcher, whose configs both have these fields.
 */
export function requireSecretKeysInProduction(c: { NODE_ENV?: string; WEBHOOK_SECRET_KEYS?: string[] }, ctx: z.RefinementCtx): void {
  if (c.NODE_ENV !== 'production' || c.WEBHOOK_SECRET_KEYS?.length) return;
  ctx.addIssue({
    code: 'custom',
    path: ['WEBHOOK_SECRET_KEYS'],
    message: 'required when NODE_ENV=production (comma-separated base64 32-byte keys, e.g. `openssl rand -base64 32`)',
  });
}
