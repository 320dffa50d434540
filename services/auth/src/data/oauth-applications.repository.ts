import type { Knex } from 'knex';
import { listPage, lockForTransaction, type ListPage } from '@firewatch/db';
import type { Page } from '@firewatch/jsonapi';
import type { Tx } from '../domain/unit-of-work.js';
import { executor } from './transaction.js';

export interface OAuthApplicationRow {
  id: string;
  team_id: number;
  client_id: string;
  name: string;
  description: string | null;
  scopes: string[];
  service_user_id: number;
  created_by_user_id: number | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewOAuthApplicationRow = Omit<OAuthApplicationRow, 'revoked_at' | 'created_at' | 'updated_at'>;

export interface OAuthApplicationsRepository {
  insert(values: NewOAuthApplicationRow, tx?: Tx): Promise<OAuthApplicationRow>;
  /** `forUpdate` (inside `tx`) locks the row until the transaction ends. */
  findLive(teamId: number, id: string, tx?: Tx, forUpdate?: boolean): Promise<OAuthApplicationRow | undefined>;
  findLiveAnyTeam(id: string): Promise<OAuthApplicationRow | undefined>;
  findLiveByClientId(clientId: string): Promise<OAuthApplicationRow | undefined>;
  list(teamId: number, page: Page): Promise<ListPage<OAuthApplicationRow>>;
  /** Live applications of the team, counted after locking the team's applications until `tx` ends. */
  countLiveLocked(teamId: number, tx: Tx): Promise<number>;
  update(
    teamId: number,
    id: string,
    patch: Partial<Pick<OAuthApplicationRow, 'name' | 'description' | 'revoked_at'>>,
    tx?: Tx,
  ): Promise<OAuthApplicationRow | undefined>;
}

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
