import type { AdapterPayload } from 'oidc-provider';
import type { Tx } from './unit-of-work.js';

/** The outcome of a binding: the team the client is bound to, or the team's cap reached. */
export type BindResult = { teamId: number } | { teamFull: true };

export interface OAuthClientTeamsRepository {
  /** The team a client works against, once a user of that team authorized it. */
  teamOf(clientId: string): Promise<number | undefined>;
  /**
   * Binds the client to `teamId` unless it is bound already; returns the team it is
   * bound to afterwards (the first binding wins when two consents race). A new binding
   * is refused when the team already has `maxPerTeam` bound clients. A bound client is
   * in use, so its registration no longer expires.
   */
  bind(clientId: string, teamId: number, userId: number, maxPerTeam?: number): Promise<BindResult>;
}

/**
 * Clients written outside the provider (admin-created client-credentials applications),
 * in the same rows the provider's Client adapter reads, so it sees them at once.
 */
export interface OAuthClientsStore {
  put(clientId: string, payload: AdapterPayload, tx?: Tx): Promise<void>;
  /** Removes the client and every token, code and grant issued to it. */
  remove(clientId: string, tx?: Tx): Promise<void>;
}
