import { CAPABILITIES, expandScopes, roleWithin, type ApiKeyKind, type Capability, type Principal, type Role } from '@firewatch/auth';
import { ForbiddenError, ValidationError } from '@firewatch/errors';
import { serviceUserRoles } from './oauth-scopes.js';

/**
 * Who creates or changes a credential. A caller of the API is bounded by its own
 * principal; the operator (CLI, bootstrap) has the database and is not.
 */
export interface Actor {
  team_id: number;
  user_id: number | null;
  principal: Principal | null;
}

export function actorOf(principal: Principal): Actor {
  return { team_id: principal.team_id, user_id: principal.user_id, principal };
}

export function operator(teamId: number): Actor {
  return { team_id: teamId, user_id: null, principal: null };
}

/** What a key would let its holder do, as far as the bounds care. */
export interface KeyShape {
  kind: ApiKeyKind;
  /** Null for personal keys, which act with their user's roles. */
  role: Role | null;
  on_call_role: Role | null;
  capabilities: readonly Capability[];
  /** Personal keys: the user they act as. */
  user_id: number | null;
  expires_at: Date | null;
}

const SIDES = [
  { side: 'ir', field: 'role' },
  { side: 'oc', field: 'on_call_role' },
] as const;

function actorExpiry(actor: Principal): Date | null {
  const c = actor.credential;
  return c.type === 'api_key' && c.expires_at ? new Date(c.expires_at) : null;
}

/** An expiring credential hands out only credentials that expire no later than itself. */
export function checkExpiryWithin(actor: Actor, expiresAt: Date | null): void {
  const ceiling = actor.principal ? actorExpiry(actor.principal) : null;
  if (ceiling === null || (expiresAt !== null && expiresAt.getTime() <= ceiling.getTime())) return;
  throw new ValidationError([
    {
      pointer: '/data/attributes/expires_at',
      code: 'beyond_own_expiry',
      detail: `expires_at must be set, and no later than your own key's expiry (${ceiling.toISOString()}).`,
    },
  ]);
}

function coversEverything(actor: Principal): boolean {
  if (actor.scopes === null) return true;
  const granted = expandScopes(actor.scopes);
  return granted.has('all') || (granted.has('ir.all') && granted.has('oc.all'));
}

/**
 * Nobody hands out more than they hold: a new or rotated key's roles, capabilities and
 * expiry stay within the caller's, and a personal key is only ever the caller's own
 * (else it would act as someone else). Keys are not limited by scopes, so an OAuth
 * token needs `all` to make one.
 */
export function assertKeyWithin(actor: Actor, key: KeyShape): void {
  const p = actor.principal;
  if (p === null) return;
  if (!coversEverything(p))
    throw new ForbiddenError('An OAuth token needs the all scope to issue API keys, which are not limited by scopes.');
  if (key.kind === 'personal') {
    if (p.user_id === null || key.user_id !== p.user_id) throw new ForbiddenError('A personal key can only be issued to its own user.');
  } else {
    for (const { side, field } of SIDES) {
      const wanted = key[field];
      if (wanted !== null && !roleWithin(wanted, p[field])) {
        throw new ForbiddenError(`The key's ${field} (${wanted}) exceeds your own ${side} role (${p[field]}).`);
      }
    }
  }
  const extra = key.capabilities.filter((c) => !p.capabilities.includes(c));
  if (extra.length) throw new ForbiddenError(`The key's capabilities exceed your own (${extra.join(', ')}).`);
  checkExpiryWithin(actor, key.expires_at);
}

function scopeHeld(granted: Set<string>, scope: string): boolean {
  if (granted.has('all')) return true;
  if (scope === 'all') return granted.has('ir.all') && granted.has('oc.all');
  return granted.has(scope);
}

/**
 * An OAuth application's scopes stay within what the caller holds: its granted scopes,
 * the roles its service user would get, and the capabilities that writing needs.
 * Applications never expire, so an expiring key cannot make one.
 */
export function assertApplicationWithin(actor: Actor, scopes: readonly string[]): void {
  const p = actor.principal;
  if (p === null) return;
  if (actorExpiry(p) !== null) throw new ForbiddenError('A key that expires cannot create OAuth applications, which do not.');
  if (p.scopes !== null) {
    const granted = expandScopes(p.scopes);
    const beyond = scopes.filter((s) => !scopeHeld(granted, s));
    if (beyond.length) throw new ForbiddenError(`The scopes exceed your own (${beyond.join(', ')}).`);
  }
  const roles = serviceUserRoles([...scopes]);
  for (const { side, field } of SIDES) {
    if (!roleWithin(roles[field], p[field])) {
      throw new ForbiddenError(`The scopes need a ${side} role of ${roles[field]}, above your own (${p[field]}).`);
    }
  }
  const writes = roles.role !== 'observer' || roles.on_call_role !== 'observer';
  const needed: readonly Capability[] = writes ? CAPABILITIES : ['read'];
  const missing = needed.filter((c) => !p.capabilities.includes(c));
  if (missing.length) throw new ForbiddenError(`Write scopes need every capability; your key lacks ${missing.join(', ')}.`);
}
