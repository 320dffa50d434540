import type { Principal } from '@firewatch/auth';
import type { CredentialLimits } from '../data/auth-service.client.js';

export type { CredentialLimits };

export type Bucket = 'read' | 'write';

export interface RateLimitDefaults {
  read: number;
  write: number;
}

/** GET, HEAD and OPTIONS are reads; everything else (POST, PUT, PATCH, DELETE, ...) a write. */
export function bucketOf(method: string): Bucket {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/**
 * Whose budget a request spends: the API key, or the OAuth client acting for a user.
 * The kind tag keeps a key id from ever colliding with a `client:user` pair.
 */
export function rateLimitIdentity(principal: Principal): string {
  const credential = principal.credential;
  if (credential.type === 'api_key') return `key:${credential.id}`;
  return `oauth:${credential.client_id}:${principal.user_id ?? '-'}`;
}

/** The limit of a bucket: the credential's own arrangement when it has one. */
export function limitFor(bucket: Bucket, limits: CredentialLimits, defaults: RateLimitDefaults): number {
  const own = limits[bucket];
  return own ?? defaults[bucket];
}
