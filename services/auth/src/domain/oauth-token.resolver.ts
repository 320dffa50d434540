import { CAPABILITIES, type Principal } from '@firewatch/auth';
import type { OAuthApplicationsRepository } from './oauth-application.store.js';
import type { AdapterPayload } from 'oidc-provider';
import type { Resolution } from './credential.types.js';
import { identityClaims } from './oauth-accounts.js';
import { apiScopes, splitScope } from './oauth-scopes.js';
import type { OAuthClientTeamsRepository } from './oauth-clients.store.js';
import type { UserRow, UsersRepository } from './users.store.js';

/** An access token (either kind) the OIDC store holds, unexpired and unrevoked. */
export interface LiveToken {
  model: 'AccessToken' | 'ClientCredentials';
  payload: AdapterPayload;
}

export interface OAuthTokensDeps {
  findLiveAccessToken(token: string): Promise<LiveToken | undefined>;
  users: UsersRepository;
  clientTeams: OAuthClientTeamsRepository;
  applications: OAuthApplicationsRepository;
}

interface TokenSubject {
  user: UserRow;
  clientId: string;
  grantId?: string;
  /** API scopes the token grants (ir.*, oc.*, meta). */
  scopes: string[];
  /** Every scope of the token, OIDC ones included. */
  tokenScopes: string[];
}

// Opaque tokens of node-oidc-provider are 43 base64url characters; allow some slack.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * OAuth access tokens, tried after API keys (docs/api-contract.md §3.1): the opaque token
 * is looked up in the provider's store and mapped to a principal whose `scopes` are the
 * granted ones and whose roles are the user's as they are now.
 */
export function createOAuthTokens(deps: OAuthTokensDeps) {
  async function subjectOf(token: string): Promise<TokenSubject | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const live = await deps.findLiveAccessToken(token);
    const payload = live?.payload;
    if (!live || !payload?.clientId || (payload.exp && payload.exp * 1000 <= Date.now())) return null;
    const tokenScopes = splitScope(payload.scope);

    if (live.model === 'ClientCredentials') {
      // Client credentials act as the application's service user, within its scopes.
      const app = await deps.applications.findLiveByClientId(payload.clientId);
      if (!app) return null;
      const user = await deps.users.findById(app.service_user_id);
      if (!user || user.team_id !== app.team_id) return null;
      const requested = apiScopes(payload.scope);
      const scopes = requested.length ? requested.filter((s) => app.scopes.includes(s)) : app.scopes;
      return { user, clientId: payload.clientId, scopes, tokenScopes };
    }

    if (!payload.accountId || !/^\d{1,10}$/.test(payload.accountId)) return null;
    const [user, team] = await Promise.all([deps.users.findById(Number(payload.accountId)), deps.clientTeams.teamOf(payload.clientId)]);
    // A token only works for the team its client is bound to (docs/api-contract.md §3.4).
    if (!user || team !== user.team_id) return null;
    return { user, clientId: payload.clientId, grantId: payload.grantId, scopes: apiScopes(payload.scope), tokenScopes };
  }

  return {
    /** The gateway's view: the user's current roles, limited by the granted scopes. */
    async resolve(token: string): Promise<Resolution | null> {
      const subject = await subjectOf(token);
      if (!subject) return null;
      const { user, clientId, grantId, scopes } = subject;
      const principal: Principal = {
        team_id: user.team_id,
        user_id: user.id,
        role: user.role,
        on_call_role: user.on_call_role,
        credential: { type: 'oauth', client_id: clientId, ...(grantId ? { grant_id: grantId } : {}) },
        capabilities: [...CAPABILITIES],
        scopes,
        group_ids: null,
        record_ids: null,
      };
      return { principal, rate_limits: { read: null, write: null } };
    },

    /**
     * userinfo for any valid access token (docs/api-contract.md §3.6): sub, team_id, role,
     * on_call_role always; name and email with `openid profile` / `openid email`.
     */
    async userinfo(token: string, claimsOf: (user: UserRow) => Record<string, unknown>): Promise<Record<string, unknown> | null> {
      const subject = await subjectOf(token);
      if (!subject) return null;
      const all = claimsOf(subject.user);
      const has = (s: string) => subject.tokenScopes.includes(s);
      const out: Record<string, unknown> = { ...identityClaims(subject.user) };
      if (has('openid') && has('profile')) Object.assign(out, { name: all.name, updated_at: all.updated_at });
      if (has('openid') && has('email') && all.email !== undefined)
        Object.assign(out, { email: all.email, email_verified: all.email_verified });
      return out;
    },
  };
}

export type OAuthTokens = ReturnType<typeof createOAuthTokens>;
