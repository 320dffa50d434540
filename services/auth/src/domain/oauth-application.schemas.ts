import { z } from 'zod';
import { GRANULAR_SCOPES, META_SCOPES } from '@firewatch/auth';

export const OAUTH_APPLICATION_TYPE = 'oauth_applications';

const API_SCOPES = [...GRANULAR_SCOPES, ...META_SCOPES] as unknown as [string, ...string[]];

/**
 * A client-credentials application (docs/oauth.md, "Client-credentials applications").
 * Unlike dynamic registration, a team admin may grant meta scopes here: the scope-less
 * resources need `all` or `ir.all`.
 */
export const createOAuthApplicationSchema = z.strictObject({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(2000).nullable().optional(),
  scopes: z
    .array(
      z.enum(API_SCOPES, { error: 'must be a granular scope (ir.<resource>:read|write, oc.<resource>:read|write) or all, ir.all, oc.all' }),
    )
    .min(1)
    .max(API_SCOPES.length)
    .transform((s) => [...new Set(s)]),
});
export type CreateOAuthApplicationInput = z.infer<typeof createOAuthApplicationSchema>;

export const updateOAuthApplicationSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(2000).nullable().optional(),
});
export type UpdateOAuthApplicationInput = z.infer<typeof updateOAuthApplicationSchema>;
