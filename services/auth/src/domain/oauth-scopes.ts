import { GRANULAR_SCOPES, META_SCOPES, type Role } from '@firewatch/auth';

/** OpenID Connect scopes; every client may ask for them (they reveal only the user). */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/** Everything the server knows: discovery's `scopes_supported`, what tokens may carry. */
export const SUPPORTED_SCOPES: string[] = [...OIDC_SCOPES, ...GRANULAR_SCOPES, ...META_SCOPES];

const API_SCOPES = new Set<string>([...GRANULAR_SCOPES, ...META_SCOPES]);
const META = new Set<string>(META_SCOPES);

export function splitScope(scope: string | undefined | null): string[] {
  return [...new Set((scope ?? '').split(' ').filter(Boolean))];
}

export function isMetaScope(scope: string): boolean {
  return META.has(scope);
}

/** The API scopes (ir.*, oc.*, meta) of a scope string, without the OIDC ones. */
export function apiScopes(scope: string | undefined | null): string[] {
  return splitScope(scope).filter((s) => API_SCOPES.has(s));
}

export function unknownScopes(scopes: string[]): string[] {
  const known = new Set(SUPPORTED_SCOPES);
  return scopes.filter((s) => !known.has(s));
}

/**
 * The scope a dynamically registered client gets: what it asked for (every granular
 * scope when it asked for none), plus the OIDC scopes so it can always sign users in.
 */
export function registeredScope(requested: string | undefined): string {
  const asked = requested === undefined ? GRANULAR_SCOPES : splitScope(requested);
  return [...new Set([...OIDC_SCOPES, ...asked])].join(' ');
}

/**
 * The service user's roles follow the application's scopes: a write scope (or a meta
 * scope) on a side makes it a `user` there, read-only scopes an `observer`. Never an
 * admin, so an application cannot manage keys or other applications.
 */
export function serviceUserRoles(scopes: string[]): { role: Role; on_call_role: Role } {
  const writes = (side: 'ir' | 'oc') =>
    scopes.some((s) => s === 'all' || s === `${side}.all` || (s.startsWith(`${side}.`) && s.endsWith(':write')));
  return { role: writes('ir') ? 'user' : 'observer', on_call_role: writes('oc') ? 'user' : 'observer' };
}
