import type { Knex } from 'knex';
import { lockForTransaction } from '@firewatch/db';
import type { BindResult, OAuthClientTeamsRepository } from '../domain/oauth-clients.store.js';

export function createOAuthClientTeamsRepository(knex: Knex): OAuthClientTeamsRepository {
  const teamOf = async (clientId: string, db: Knex = knex) => {
    const row = await db('oauth_client_teams').select<{ team_id: number }[]>('team_id').where({ client_id: clientId }).first();
    return row?.team_id;
  };
  return {
    teamOf: (clientId) => teamOf(clientId),
    async bind(clientId, teamId, userId, maxPerTeam) {
      return knex.transaction(async (tx): Promise<BindResult> => {
        const bound = await teamOf(clientId, tx);
        if (bound !== undefined) return { teamId: bound };
        if (maxPerTeam !== undefined) {
          // Count, then insert, one binding of this team at a time.
          await lockForTransaction(tx, 'oauth_client_teams', teamId);
          // Clients that no longer exist (deleted applications) do not count.
          const [{ n }] = await tx('oauth_client_teams as b')
            .join('oidc_payloads as c', (j) => j.on('c.id', 'b.client_id').andOnVal('c.model', 'Client'))
            .where('b.team_id', teamId)
            .count<{ n: string }[]>({ n: '*' });
          if (Number(n) >= maxPerTeam) return { teamFull: true };
        }
        await tx('oauth_client_teams')
          .insert({ client_id: clientId, team_id: teamId, bound_by_user_id: userId })
          .onConflict('client_id')
          .ignore();
        await tx('oidc_payloads').where({ model: 'Client', id: clientId }).update({ expires_at: null });
        return { teamId: (await teamOf(clientId, tx)) as number };
      });
    },
  };
}
