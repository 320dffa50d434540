import type { Knex } from 'knex';
import { listPage, lockForTransaction, nullableColumns } from '@firewatch/db';
import { apiKeyOrder, applyApiKeyFilters } from './api-keys.query.js';
import { executor } from './transaction.js';
import type { ApiKeyRow, ApiKeysRepository, ResolvableApiKeyRow } from '../domain/api-key.store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createApiKeysRepository(knex: Knex): ApiKeysRepository {
  const live = (db: Knex, teamId: number | null, id: string) => {
    const q = db<ApiKeyRow>('api_keys').where({ id }).whereNull('revoked_at');
    return teamId === null ? q : q.andWhere({ team_id: teamId });
  };

  return {
    async insert(row, tx) {
      const [created] = await executor(knex, tx)<ApiKeyRow>('api_keys').insert(row).returning('*');
      return created;
    },
    async findLive(teamId, id, tx, forUpdate = false) {
      if (!UUID.test(id)) return undefined;
      const q = live(executor(knex, tx), teamId, id).first();
      return forUpdate ? q.forUpdate() : q;
    },
    async findLiveAnyTeam(id) {
      if (!UUID.test(id)) return undefined;
      return live(knex, null, id).first();
    },
    async list(teamId, query) {
      const q = knex('api_keys').where({ team_id: teamId }).whereNull('revoked_at');
      applyApiKeyFilters(q, query.filters);
      const order = apiKeyOrder(query.sort, await nullableColumns(knex, 'api_keys'));
      const binding = [teamId, query.filters.map((f) => JSON.stringify(f)).sort()];
      return listPage<ApiKeyRow>(knex, q, { table: 'api_keys', order, page: query.page, binding });
    },
    async listAll(teamId) {
      return knex<ApiKeyRow>('api_keys')
        .where({ team_id: teamId })
        .whereNull('revoked_at')
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async update(teamId, id, patch, tx) {
      if (!UUID.test(id)) return undefined;
      const [row] = await live(executor(knex, tx), teamId, id)
        .update({ ...patch, updated_at: knex.fn.now() } as unknown as Partial<ApiKeyRow>)
        .returning('*');
      return row as ApiKeyRow | undefined;
    },
    async findForResolve(prefix) {
      const row = await knex('api_keys as k')
        .leftJoin('users as u', function joinPersonalUser() {
          this.on('u.id', '=', 'k.user_id').andOn('u.team_id', '=', 'k.team_id');
        })
        .select('k.*', 'u.role as user_role', 'u.on_call_role as user_on_call_role')
        .where((w) => w.where('k.prefix', prefix).orWhere('k.previous_prefix', prefix))
        .whereNull('k.revoked_at')
        .first();
      return row as ResolvableApiKeyRow | undefined;
    },
    async removeGroup(teamId, groupId, tx) {
      return tx<ApiKeyRow>('api_keys')
        .where({ team_id: teamId })
        .whereNull('revoked_at')
        .andWhereRaw('? = ANY(group_ids)', [groupId])
        .update({ group_ids: tx.raw('array_remove(group_ids, ?)', [groupId]), updated_at: tx.fn.now() } as unknown as Partial<ApiKeyRow>)
        .returning('*');
    },
    async countLiveLocked(teamId, tx) {
      await lockForTransaction(tx, 'api_keys', teamId);
      // Expired keys resolve no more, so they spend no budget and hold no slot.
      const [{ count }] = await tx('api_keys')
        .where({ team_id: teamId })
        .whereNull('revoked_at')
        .andWhere((w) => w.whereNull('expires_at').orWhere('expires_at', '>', tx.fn.now()))
        .count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
    async touchLastUsed(id, at, intervalMs) {
      await knex('api_keys')
        .where({ id })
        .andWhere((w) => w.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(at.getTime() - intervalMs)))
        .update({ last_used_at: at });
    },
  };
}
