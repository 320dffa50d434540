import type { Request } from 'express';
import { authorize, getPrincipal, type Capability, type Principal } from '@firewatch/auth';

/**
 * Credential management (API keys, OAuth applications) is for team admins only, on
 * every operation; OAuth tokens additionally need `all` or `ir.all`, since these
 * resources have no granular scope.
 */
export function requireAdmin(req: Request, action: Capability): Principal {
  const principal = getPrincipal(req);
  authorize(principal, { scope: null, side: 'ir', action, adminOnly: true });
  return principal;
}

export function idParam(req: Request): string {
  return String(req.params.id);
}
