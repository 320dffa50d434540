import type { ApiKeyRow } from './api-key.store.js';
import type { Tx } from './unit-of-work.js';

/** The credentials that act as one user, ended when the user is deleted. */
export interface UserCredentialsRepository {
  /** Revokes the user's live personal API keys at `at`; returns them as revoked. */
  revokePersonalKeys(teamId: number, userId: number, at: Date, tx: Tx): Promise<ApiKeyRow[]>;
  /**
   * Deletes every session, grant, authorization code, access and refresh token the
   * OAuth server holds for the user (their account id), so none works again; returns
   * how many there were.
   */
  revokeOAuthGrants(userId: number, tx: Tx): Promise<number>;
}
