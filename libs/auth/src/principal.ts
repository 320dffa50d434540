export const ROLES = ['admin', 'user', 'observer'] as const;
export type Role = (typeof ROLES)[number];

const ROLE_RANK: Record<Role, number> = { observer: 0, user: 1, admin: 2 };

/** True when `role` grants no more than `ceiling` (observer < user < admin). */
export function roleWithin(role: Role, ceiling: Role): boolean {
  return ROLE_RANK[role] <= ROLE_RANK[ceiling];
}

export const CAPABILITIES = ['read', 'create', 'update', 'delete'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const API_KEY_KINDS = ['global', 'group', 'personal', 'record'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export type Credential =
  /** `expires_at`: when the key stops working (ISO 8601); absent or null when it never does. */
  { type: 'api_key'; id: string; kind: ApiKeyKind; expires_at?: string | null } | { type: 'oauth'; client_id: string; grant_id?: string };

/**
 * Who is calling, as the gateway resolved it. Services trust it only inside a
 * token signed by the gateway (see {@link createPrincipalSigner}).
 */
export interface Principal {
  team_id: number;
  /** The acting user; null for team-wide API keys that act for no one user. */
  user_id: number | null;
  /** Role on the incident side (`ir.*` resources and the scope-less ones). */
  role: Role;
  /** Role on the on-call side (`oc.*` resources). */
  on_call_role: Role;
  credential: Credential;
  /** What the credential may do; OAuth tokens carry all four and are limited by scopes. */
  capabilities: Capability[];
  /** Granted OAuth scopes; null when the credential is not scope-limited (API keys). */
  scopes: string[] | null;
  /** Group keys: the groups they act within; null otherwise. */
  group_ids: string[] | null;
  /** Record-scoped keys: the only record ids they may touch; null otherwise. */
  record_ids: string[] | null;
}
