import type { Knex } from 'knex';

export interface OAuthClientTeamsRepository {
  /** The team a client works against, once a user of that team authorized it. */
  teamOf(clientId: string): Promise<number | undefined>;
  /**
   * Binds the client to `teamId` unless it is bound already; returns the team it is
   * bound to afterwards (the first binding wins when two consents race). A bound client
   * is in use, so its registration no longer expires.
   */
  bind(clientId: string, teamId: number, userId: number): Promise<number>;
}

export function createOAuthClientTeamsRepository(knex: Knex): OAuthClientTeamsRepository {
  const teamOf = async (clientId: string) => {
    const row = await knex('oauth_client_teams').select<{ team_id: number }[]>('team_id').where({ client_id: clientId }).first();
    return row?.team_id;
  };
  return {
    teamOf,
    async bind(clientId, teamId, userId) {
      await knex.transaction(async (tx) => {
        await tx('oauth_client_teams').insert({ client_id: clientId, team_id: teamId, bound_by_user_id: userId }).onConflict('client_id').ignore();
        await tx('oidc_payloads').where({ model: 'Client', id: clientId }).update({ expires_at: null });
      });
      return (await teamOf(clientId)) as number;
    },
  };
}
