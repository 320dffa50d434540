import type { Knex } from 'knex';
import { listPage, lockForTransaction } from '@firewatch/db';
import { executor } from './transaction.js';
import type { OAuthApplicationRow, OAuthApplicationsRepository } from '../domain/oauth-application.store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createOAuthApplicationsRepository(knex: Knex): OAuthApplicationsRepository {
  const live = (db: Knex) => db<OAuthApplicationRow>('oauth_applications').whereNull('revoked_at');
  return {
    async insert(values, tx) {
      const [row] = await executor(knex, tx)<OAuthApplicationRow>('oauth_applications').insert(values).returning('*');
      return row;
    },
    async findLive(teamId, id, tx, forUpdate = false) {
      if (!UUID.test(id)) return undefined;
      const q = live(executor(knex, tx)).where({ team_id: teamId, id }).first();
      return forUpdate ? q.forUpdate() : q;
    },
    async findLiveAnyTeam(id) {
      if (!UUID.test(id)) return undefined;
      return live(knex).where({ id }).first();
    },
    async countLiveLocked(teamId, tx) {
      await lockForTransaction(tx, 'oauth_applications', teamId);
      const [{ count }] = await live(tx).where({ team_id: teamId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
    async findLiveByClientId(clientId) {
      return live(knex).where({ client_id: clientId }).first();
    },
    async list(teamId, page) {
      const order = [
        { column: 'created_at', direction: 'asc' as const },
        { column: 'id', direction: 'asc' as const },
      ];
      return listPage<OAuthApplicationRow>(knex, live(knex).where({ team_id: teamId }), {
        table: 'oauth_applications',
        order,
        page,
        binding: [teamId],
      });
    },
    async update(teamId, id, patch, tx) {
      if (!UUID.test(id)) return undefined;
      const [row] = await live(executor(knex, tx))
        .where({ team_id: teamId, id })
        .update({ ...patch, updated_at: knex.fn.now() as never })
        .returning('*');
      return row;
    },
  };
}
