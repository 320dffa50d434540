import type { Request } from 'express';
import { authorize, getPrincipal, type Principal } from '@firewatch/auth';
import { ForbiddenError } from '@firewatch/errors';
import type { UserEditor } from '../domain/users.rules.js';
import { requireAdmin } from './admin-guard.js';

/**
 * Reading the users directory: no granular scope names users, and who the team's people
 * are is what every client needs to name an assignee, so any credential of the team may
 * read it (OAuth tokens whatever their scopes, as `/v1/users/me` and userinfo), as long as
 * it holds the `read` capability.
 */
export function requireReader(req: Request): Principal {
  const principal = getPrincipal(req);
  if (!principal.capabilities.includes('read')) throw new ForbiddenError('This credential lacks the read capability.');
  return principal;
}

/**
 * Who changes user `userId`: an unrestricted team admin (admin-guard.ts), or else the
 * user acting as themselves (a personal key or an OAuth token of theirs) under the one
 * rule for a write without a granular scope (capability, a role that writes, `all` or
 * `ir.all` for OAuth tokens). Anyone else is refused with the admin rule's 403.
 */
export function requireEditor(req: Request, userId: string): { principal: Principal; editor: UserEditor } {
  const principal = getPrincipal(req);
  try {
    return { principal: requireAdmin(req, 'update'), editor: 'admin' };
  } catch (err) {
    if (principal.user_id === null || String(principal.user_id) !== userId) throw err;
  }
  authorize(principal, { scope: null, side: 'ir', action: 'update' });
  return { principal, editor: 'self' };
}
