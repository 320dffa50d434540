import type { Principal } from '@firewatch/auth';
import type { ApiKeysRepository, ResolvableApiKeyRow } from './api-key.store.js';
import { tokenMatches, tokenPrefix } from './api-key-token.js';
import type { Resolution } from './credential.types.js';

/** `last_used_at` is refreshed at most this often per key, keeping the hot path read-only. */
export const LAST_USED_INTERVAL_MS = 60_000;

export interface ApiKeyResolverDeps {
  apiKeys: ApiKeysRepository;
  now?: () => Date;
  /** Called when recording use fails; resolving goes on regardless. */
  onTouchError?: (err: unknown) => void;
}

function presentedTokenIsValid(row: ResolvableApiKeyRow, prefix: string, token: string, now: Date): boolean {
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return false;
  if (row.prefix === prefix) return tokenMatches(token, row.token_hash);
  // The previous token of a rotated key works only until its grace period ends.
  const inGrace = row.grace_period_ends_at !== null && row.grace_period_ends_at.getTime() > now.getTime();
  return inGrace && row.previous_prefix === prefix && tokenMatches(token, row.previous_token_hash);
}

function toPrincipal(row: ResolvableApiKeyRow): Principal | null {
  const personal = row.kind === 'personal';
  // Personal keys act with their user's roles as they are now, so a demotion applies at once.
  const role = personal ? row.user_role : row.role;
  const onCallRole = personal ? row.user_on_call_role : row.on_call_role;
  if (!role || !onCallRole || (personal && row.user_id === null)) return null;
  return {
    team_id: row.team_id,
    user_id: personal ? row.user_id : null,
    role,
    on_call_role: onCallRole,
    credential: { type: 'api_key', id: row.id, kind: row.kind, expires_at: row.expires_at ? row.expires_at.toISOString() : null },
    capabilities: row.capabilities,
    scopes: null,
    group_ids: row.group_ids,
    record_ids: row.record_ids,
  };
}

/** Resolves `fwk_...` tokens: one indexed query, a constant-time hash comparison. */
export function createApiKeyResolver({ apiKeys, now = () => new Date(), onTouchError }: ApiKeyResolverDeps) {
  return async function resolveApiKey(token: string): Promise<Resolution | null> {
    const prefix = tokenPrefix(token);
    if (!prefix) return null;
    const row = await apiKeys.findForResolve(prefix);
    const at = now();
    if (!row || !presentedTokenIsValid(row, prefix, token, at)) return null;
    const principal = toPrincipal(row);
    if (!principal) return null;
    if (!row.last_used_at || at.getTime() - row.last_used_at.getTime() >= LAST_USED_INTERVAL_MS) {
      await apiKeys.touchLastUsed(row.id, at, LAST_USED_INTERVAL_MS).catch((err) => onTouchError?.(err));
    }
    return { principal, rate_limits: { read: row.rate_limit_read, write: row.rate_limit_write } };
  };
}
