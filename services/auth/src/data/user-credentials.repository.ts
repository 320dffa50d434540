import type { ApiKeyRow } from '../domain/api-key.store.js';
import type { UserCredentialsRepository } from '../domain/user-credentials.store.js';

export function createUserCredentialsRepository(): UserCredentialsRepository {
  return {
    async revokePersonalKeys(teamId, userId, at, tx) {
      return tx<ApiKeyRow>('api_keys')
        .where({ team_id: teamId, user_id: userId, kind: 'personal' })
        .whereNull('revoked_at')
        .update({ revoked_at: at, updated_at: at })
        .returning('*') as Promise<ApiKeyRow[]>;
    },
    // node-oidc-provider writes `accountId` into sessions, grants, codes and tokens alike;
    // the users-profile migration indexes it.
    async revokeOAuthGrants(userId, tx) {
      return tx('oidc_payloads')
        .whereRaw("payload->>'accountId' = ?", [String(userId)])
        .delete();
    },
  };
}
