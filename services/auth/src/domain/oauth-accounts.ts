import type { UserRow, UsersRepository } from './users.store.js';

export interface OAuthAccounts {
  /** The user behind an OAuth subject (`sub` is the user id as a string). */
  find(sub: string): Promise<UserRow | undefined>;
  /** Every claim the server can state about a user; the provider filters by scope. */
  claims(user: UserRow): Record<string, unknown>;
}

/** The claims any valid token gets at userinfo (docs/api-contract.md §3.6). */
export function identityClaims(user: UserRow): Record<string, unknown> {
  return { sub: String(user.id), team_id: user.team_id, role: user.role, on_call_role: user.on_call_role };
}

export function createOAuthAccounts(users: UsersRepository): OAuthAccounts {
  return {
    async find(sub) {
      if (!/^[1-9]\d{0,9}$/.test(sub)) return undefined;
      return users.findById(Number(sub));
    },
    claims(user) {
      return {
        ...identityClaims(user),
        name: user.name,
        updated_at: Math.floor(user.updated_at.getTime() / 1000),
        // Service accounts have no mailbox; their placeholder address is not a claim.
        ...(user.is_service_account ? {} : { email: user.email, email_verified: false }),
      };
    },
  };
}
