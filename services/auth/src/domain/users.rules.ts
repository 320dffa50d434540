import { CAPABILITIES, expandScopes, roleWithin, type Principal } from '@firewatch/auth';
import { ForbiddenError, ValidationError } from '@firewatch/errors';
import type { UpdateUserAttributes } from './users.schemas.js';
import type { UserChanges, UserRow } from './users.store.js';

/** Who changes a user: a team admin, or the user acting as themselves (personal key, OAuth token). */
export type UserEditor = 'admin' | 'self';

/** What a user may change of their own record without being an admin. */
const SELF_EDITABLE: ReadonlySet<string> = new Set(['first_name', 'last_name', 'time_zone']);
/** What an OAuth application's service user takes from its application, not from a person. */
const FROM_APPLICATION = ['email', 'role', 'on_call_role'] as const;

/** The full name: first and last name joined, as the reference's full_name reads. */
export function fullName(first: string | null, last: string | null): string {
  return [first, last].filter((part) => part).join(' ');
}

/** A display name as first name (its first word) and last name (the rest, or null). */
export function splitName(name: string): { first_name: string; last_name: string | null } {
  const [first, ...rest] = name.trim().split(/\s+/);
  return { first_name: first ?? '', last_name: rest.length ? rest.join(' ') : null };
}

/** 403 when a user acting as themselves sends anything but their own name and time zone. */
export function assertEditorMay(editor: UserEditor, input: UpdateUserAttributes): void {
  if (editor === 'admin') return;
  const others = Object.keys(input).filter((k) => input[k as keyof UpdateUserAttributes] !== undefined && !SELF_EDITABLE.has(k));
  if (others.length) {
    throw new ForbiddenError(
      `Only team admins may change ${others.join(', ')}; you may change your own first_name, last_name and time_zone.`,
    );
  }
}

/** True when `changes` gives the user a role above the one they have, on either side. */
function raisesRole(row: UserRow, changes: UserChanges): boolean {
  return (['role', 'on_call_role'] as const).some((side) => changes[side] !== undefined && !roleWithin(changes[side], row[side]));
}

/**
 * 403 when an admin's change of roles hands out more than they hold, as with the keys
 * they issue (credential-bounds.rules.ts). The admin role that lets them change users is
 * the incident side's, so an `on_call_role` stays within their own (never above it, never
 * of someone above it; OAuth: `all` or `oc.all`). A user's roles neither expire nor lack
 * a capability, so raising one needs a credential that does neither: else an expiring or
 * read-and-update admin key would make its holder's own account an admin for good.
 * `actor` is null for the operator, who is not bounded.
 */
export function assertRolesWithin(actor: Principal | null, row: UserRow, changes: UserChanges): void {
  if (actor === null) return;
  const wanted = changes.on_call_role;
  if (wanted !== undefined && wanted !== row.on_call_role) {
    if (actor.scopes !== null) {
      const granted = expandScopes(actor.scopes);
      if (!granted.has('all') && !granted.has('oc.all')) {
        throw new ForbiddenError('Changing on_call_role needs the all or oc.all scope.', { code: 'insufficient_scope' });
      }
    }
    const ceiling = actor.on_call_role;
    if (!roleWithin(wanted, ceiling) || !roleWithin(row.on_call_role, ceiling)) {
      throw new ForbiddenError(
        `Your own on_call_role (${ceiling}) cannot change an on_call_role from ${row.on_call_role} to ${wanted}; only as high as your own.`,
      );
    }
  }
  if (!raisesRole(row, changes)) return;
  const missing = CAPABILITIES.filter((c) => !actor.capabilities.includes(c));
  if (missing.length) throw new ForbiddenError(`Raising a role needs every capability; your credential lacks ${missing.join(', ')}.`);
  if (actor.credential.type === 'api_key' && actor.credential.expires_at) {
    throw new ForbiddenError('A key that expires cannot raise a role, which does not expire.');
  }
}

/**
 * The row changes `input` makes to `row`; a 422 for what the user's kind forbids. The
 * full name follows the first and last names, and someone must be left to call the user.
 */
export function userChanges(row: UserRow, input: UpdateUserAttributes): UserChanges {
  const changes: UserChanges = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
  }
  if (row.is_service_account) {
    const fixed = FROM_APPLICATION.filter((k) => changes[k] !== undefined && changes[k] !== row[k]);
    if (fixed.length) {
      throw new ValidationError(
        fixed.map((k) => ({
          pointer: `/data/attributes/${k}`,
          code: 'service_account',
          detail: `${k} of an OAuth application's service user follows the application; change or revoke the application instead.`,
        })),
      );
    }
  }
  if (changes.first_name !== undefined || changes.last_name !== undefined) {
    const name = fullName(
      changes.first_name === undefined ? row.first_name : changes.first_name,
      changes.last_name === undefined ? row.last_name : changes.last_name,
    );
    if (!name) {
      throw new ValidationError([
        { pointer: '/data/attributes/first_name', code: 'required', detail: 'A user needs a first or a last name; both cannot be empty.' },
      ]);
    }
    changes.name = name;
  }
  return changes;
}

/** True when the change takes the admin role from a person who has it. */
export function demotesAdmin(row: UserRow, changes: UserChanges): boolean {
  return !row.is_service_account && row.role === 'admin' && changes.role !== undefined && changes.role !== 'admin';
}

/** 422 `last_admin`: a team keeps at least one person who may manage it. */
export function lastAdmin(action: 'delete' | 'demote'): ValidationError {
  const what = action === 'delete' ? 'delete' : 'take the admin role from';
  return new ValidationError([
    {
      pointer: action === 'delete' ? '/data' : '/data/attributes/role',
      code: 'last_admin',
      detail: `Cannot ${what} the team's last admin; make another user admin first.`,
    },
  ]);
}
