import type { Principal } from '@firewatch/auth';

/** Per-credential limits agreed with the account manager; null means "the configured default". */
export interface CredentialLimits {
  read: number | null;
  write: number | null;
}

export type Bucket = 'read' | 'write';

export interface RateLimitDefaults {
  read: number;
  write: number;
}

/** The configured limits: per credential, per acting user, per team. */
export interface RateLimitPolicy {
  credential: RateLimitDefaults;
  user: RateLimitDefaults;
  team: RateLimitDefaults;
}

/** Whose budgets a request spends, from the narrowest to the widest. */
export interface RateLimitIdentities {
  /** The API key, or the OAuth client acting for a user: `key:<id>`, `oauth:<client>:<user>`. */
  credential: string;
  /** The user a personal key or an OAuth token acts as; null for team-wide keys. */
  user: string | null;
  team: string;
}

/** GET, HEAD and OPTIONS are reads; everything else (POST, PUT, PATCH, DELETE, ...) a write. */
export function bucketOf(method: string): Bucket {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/**
 * The kind tags keep a key id from ever colliding with a `client:user` pair. A user's
 * and a team's budgets are shared by all their credentials, so minting more keys or
 * authorizing more OAuth clients does not multiply the limits.
 */
export function rateLimitIdentities(principal: Principal): RateLimitIdentities {
  const c = principal.credential;
  const actsAsUser = principal.user_id !== null && (c.type === 'oauth' || c.kind === 'personal');
  return {
    credential: c.type === 'api_key' ? `key:${c.id}` : `oauth:${c.client_id}:${principal.user_id ?? '-'}`,
    user: actsAsUser ? `user:${principal.team_id}:${principal.user_id}` : null,
    team: `team:${principal.team_id}`,
  };
}

/**
 * The logs one request is counted in, narrowest first. A credential's own arrangement
 * (its per-key limit) also lifts its user's and team's ceilings for its own requests, or
 * the arrangement would be void; other credentials still meet the configured ceiling.
 */
export function rateLimitLogs(
  bucket: Bucket,
  ids: RateLimitIdentities,
  own: CredentialLimits,
  policy: RateLimitPolicy,
): { key: string; limit: number }[] {
  const arranged = own[bucket];
  const credential = arranged ?? policy.credential[bucket];
  const logs = [{ key: `${bucket}:${ids.credential}`, limit: credential }];
  if (ids.user !== null) logs.push({ key: `${bucket}:${ids.user}`, limit: Math.max(policy.user[bucket], arranged ?? 0) });
  logs.push({ key: `${bucket}:${ids.team}`, limit: Math.max(policy.team[bucket], arranged ?? 0) });
  return logs;
}
