import { z } from 'zod';
import { API_KEY_KINDS, CAPABILITIES, ROLES, type ApiKeyKind } from '@firewatch/auth';

/** The reference API's kind names, accepted as aliases of ours. */
export const KIND_ALIASES: Readonly<Record<string, ApiKeyKind>> = { organization: 'global', team: 'group' };

export const ACCEPTED_KINDS = [...API_KEY_KINDS, ...Object.keys(KIND_ALIASES)] as [string, ...string[]];

export function canonicalKind(kind: string): string {
  return KIND_ALIASES[kind] ?? kind;
}

const kind = z.enum(ACCEPTED_KINDS).transform((k) => canonicalKind(k) as ApiKeyKind);
const dateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone' });
const idList = z.array(z.string().trim().min(1).max(200)).min(1).max(1000);
// JSON:API clients often send ids as strings; users have integer ids.
const userId = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(1).max(2_147_483_647));
const rateLimit = z.number().int().min(1).max(1_000_000).nullable();

/**
 * Everything a key can be created with. The rate-limit overrides are set only by an
 * operator (an arrangement with the operator, docs/api-contract.md §4); the HTTP API
 * uses {@link apiCreateApiKeySchema}, which leaves them out.
 */
export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(2000).nullable().optional(),
  kind,
  expires_at: dateTime.nullable().optional(),
  group_ids: idList.nullable().optional(),
  /** The reference API's single-group form of `group_ids`. */
  group_id: z.string().trim().min(1).max(200).nullable().optional(),
  record_ids: idList.nullable().optional(),
  user_id: userId.nullable().optional(),
  role: z.enum(ROLES).nullable().optional(),
  on_call_role: z.enum(ROLES).nullable().optional(),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1).nullable().optional(),
  rate_limit_read: rateLimit.optional(),
  rate_limit_write: rateLimit.optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const apiCreateApiKeySchema = createApiKeySchema.omit({ rate_limit_read: true, rate_limit_write: true });

/** The reference allows changing only these after creation; kind and roles need a new key. */
export const updateApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(2000).nullable().optional(),
  expires_at: dateTime.nullable().optional(),
});
export type UpdateApiKeyInput = z.infer<typeof updateApiKeySchema>;

/** Upper bound of the rotation grace period, as the reference API sets it (one day). */
export const MAX_GRACE_PERIOD_MINUTES = 1440;

export const rotateApiKeySchema = z.strictObject({
  grace_period_minutes: z.number().int().min(0).max(MAX_GRACE_PERIOD_MINUTES).optional(),
  expires_at: dateTime.nullable().optional(),
});
export type RotateApiKeyInput = z.infer<typeof rotateApiKeySchema>;

export const rateLimitsSchema = z.strictObject({ rate_limit_read: rateLimit.optional(), rate_limit_write: rateLimit.optional() });
export type RateLimitsInput = z.infer<typeof rateLimitsSchema>;
