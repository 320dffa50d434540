import type { Permission } from '@firewatch/auth';

/**
 * What every webhook operation needs, endpoints and deliveries alike: the admin role, a
 * credential limited by neither records nor groups, and for OAuth tokens the `all` scope
 * (credential management's rule, plus `all`). An endpoint receives every event of the
 * team it subscribes to, whoever may read the record in the API: private incidents,
 * other users' dashboards, secrets and schedules of any owner group, API key metadata,
 * on-call records (hence not `ir.all`). Its deliveries store those payloads and are
 * readable without any receiver, so only a caller who may read all of it through the
 * API may subscribe or read them back (security issue 19, finding 1).
 */
export const WEBHOOKS_PERMISSION = {
  scope: null,
  side: 'ir',
  adminOnly: true,
  unrestricted: true,
  allScope: true,
} as const satisfies Omit<Permission, 'action'>;
