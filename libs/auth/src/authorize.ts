import { ForbiddenError, NotFoundError } from '@firewatch/errors';
import type { Capability, Principal, Role } from './principal.js';
import { expandScopes } from './scopes.js';

/** What an operation needs, as a resource declaration states it. */
export interface Permission {
  /** Scope stem such as `ir.environments`; null for resources without a granular scope. */
  scope: string | null;
  side: 'ir' | 'oc';
  action: Capability;
  /** Only team admins (API key management, for example). */
  adminOnly?: boolean;
  /** The record touched, checked against record-scoped keys. */
  recordId?: string;
}

const ROLE_ALLOWS: Record<Role, ReadonlySet<Capability>> = {
  admin: new Set(['read', 'create', 'update', 'delete']),
  user: new Set(['read', 'create', 'update', 'delete']),
  observer: new Set(['read']),
};

const scopeCache = new WeakMap<string[], Set<string>>();
function grantedScopes(scopes: string[]): Set<string> {
  let set = scopeCache.get(scopes);
  if (!set) scopeCache.set(scopes, (set = expandScopes(scopes)));
  return set;
}

function scopeAllows(principal: Principal, perm: Permission): boolean {
  if (principal.scopes === null) return true;
  const granted = grantedScopes(principal.scopes);
  if (granted.has('all') || granted.has(`${perm.side}.all`)) return true;
  if (perm.scope === null) return false;
  // A write scope implies read: a client that may change a record may also see it.
  if (perm.action === 'read') return granted.has(`${perm.scope}:read`) || granted.has(`${perm.scope}:write`);
  return granted.has(`${perm.scope}:write`);
}

/**
 * The one authorization check: capability, role, scope and record list.
 * Throws 403 when the caller is known but not permitted, and 404 when a
 * record-scoped key names a record outside its list, so existence never leaks.
 */
export function authorize(principal: Principal, perm: Permission): void {
  if (!principal.capabilities.includes(perm.action)) {
    throw new ForbiddenError(`This credential lacks the ${perm.action} capability.`);
  }
  const role = perm.side === 'oc' ? principal.on_call_role : principal.role;
  if (perm.adminOnly && role !== 'admin') throw new ForbiddenError('Only team admins may do this.');
  if (!ROLE_ALLOWS[role].has(perm.action)) {
    throw new ForbiddenError(`The ${role} role may not ${perm.action} this resource.`);
  }
  if (!scopeAllows(principal, perm)) {
    const needed = perm.scope ? `${perm.scope}:${perm.action === 'read' ? 'read' : 'write'}` : `${perm.side}.all`;
    throw new ForbiddenError(`The granted scopes do not include ${needed}.`, { code: 'insufficient_scope' });
  }
  if (principal.record_ids !== null) {
    if (perm.recordId === undefined) {
      // Lists are narrowed to principal.record_ids by the repository; a new record is outside any list.
      if (perm.action === 'create') throw new ForbiddenError('A record-scoped key cannot create records.');
    } else if (!principal.record_ids.includes(perm.recordId)) {
      throw new NotFoundError();
    }
  }
}
