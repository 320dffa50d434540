import type { Request } from 'express';
import { authorize, getPrincipal, type Capability, type Principal } from '@firewatch/auth';

/**
 * Credential management (API keys, OAuth applications) is for team admins only, on
 * every operation, and only with a credential limited by neither records nor groups;
 * OAuth tokens additionally need `all` or `ir.all`, since these resources have no
 * granular scope. What a new credential may grant is bounded in the domain
 * (credential-bounds.rules.ts).
 */
export function requireAdmin(req: Request, action: Capability): Principal {
  const principal = getPrincipal(req);
  authorize(principal, { scope: null, side: 'ir', action, adminOnly: true, unrestricted: true });
  return principal;
}

export function idParam(req: Request): string {
  return String(req.params.id);
}
