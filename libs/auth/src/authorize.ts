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
  /**
   * Only principals limited by neither a record list nor groups. Credential management
   * needs it: a key that can list, rotate or revoke every credential of its team is
   * in effect unrestricted, whatever its own lists say.
   */
  unrestricted?: boolean;
  /**
   * OAuth tokens need the `all` scope; a side's meta scope (`ir.all`) is not enough.
   * For data that spans both sides: webhook events carry on-call records too.
   */
  allScope?: boolean;
  /** The record touched, checked against record-scoped keys. */
  recordId?: string;
  /**
   * The owner groups of the record touched (or about to be created), on resources that
   * carry `owner_group_ids`; left undefined elsewhere, where group keys act team-wide.
   */
  ownerGroupIds?: readonly string[] | null;
  /**
   * `ownerGroupIds` are the groups the record is about to be given (an update changing
   * them): outside the key's groups that is a 403, as on create, not a 404.
   */
  assigning?: boolean;
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
  if (granted.has('all')) return true;
  if (perm.allScope) return false;
  if (granted.has(`${perm.side}.all`)) return true;
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
    const granular = perm.scope ? `${perm.scope}:${perm.action === 'read' ? 'read' : 'write'}` : `${perm.side}.all`;
    const needed = perm.allScope ? 'all' : granular;
    throw new ForbiddenError(`The granted scopes do not include ${needed}.`, { code: 'insufficient_scope' });
  }
  if (perm.unrestricted && (principal.record_ids !== null || principal.group_ids !== null)) {
    throw new ForbiddenError('A key limited to records or groups cannot do this; use an unrestricted credential.');
  }
  checkRecordList(principal, perm);
  checkOwnerGroups(principal, perm);
}

/**
 * What a permission demands beyond role and capability, in words for API documents
 * (an operation's OpenAPI `description`); undefined when it demands nothing special.
 */
export function describePermission(perm: Omit<Permission, 'action'>): string | undefined {
  if (!perm.adminOnly && !perm.unrestricted && !perm.allScope) return undefined;
  const needs = [
    ...(perm.adminOnly ? ['the admin role'] : []),
    ...(perm.unrestricted ? ['a credential limited by neither records nor groups'] : []),
  ];
  const scope = perm.allScope ? '`all`' : perm.scope === null ? `\`all\` or \`${perm.side}.all\`` : `\`${perm.scope}\``;
  return `Needs ${needs.length ? `${needs.join(', ')} and, ` : ''}for OAuth tokens, the ${scope} scope.`;
}

function checkRecordList(principal: Principal, perm: Permission): void {
  if (principal.record_ids === null) return;
  if (perm.recordId !== undefined) {
    if (!principal.record_ids.includes(perm.recordId)) throw new NotFoundError();
    return;
  }
  // Without a record id, only a read can be confined to the listed records, and only
  // because the repository narrows the list; anything else would reach beyond them.
  if (perm.action === 'create') throw new ForbiddenError('A record-scoped key cannot create records.');
  if (perm.action !== 'read') throw new ForbiddenError('A record-scoped key may only act on the records it lists.');
}

function checkOwnerGroups(principal: Principal, perm: Permission): void {
  if (principal.group_ids === null || perm.ownerGroupIds === undefined) return;
  const groups = principal.group_ids;
  if ((perm.ownerGroupIds ?? []).some((g) => groups.includes(g))) return;
  if (perm.action === 'create' || perm.assigning) {
    throw new ForbiddenError('A group-scoped key may only create or leave records owned by one of its groups.', { code: 'owner_groups' });
  }
  // Records of other groups are invisible to the key, as records of other teams are.
  throw new NotFoundError();
}
