import type { Knex } from 'knex';
import type { ApiKeyKind, Capability, Role } from '@firewatch/auth';
import { listPage, lockForTransaction, nullableColumns, type ListPage } from '@firewatch/db';
import type { FilterCondition, Page, SortField } from '@firewatch/jsonapi';
import { apiKeyOrder, applyApiKeyFilters } from './api-keys.query.js';
import type { Tx } from '../domain/unit-of-work.js';
import { executor } from './transaction.js';

export interface ApiKeyRow {
  id: string;
  team_id: number;
  user_id: number | null;
  name: string;
  description: string | null;
  kind: ApiKeyKind;
  role: Role | null;
  on_call_role: Role | null;
  capabilities: Capability[];
  group_ids: string[] | null;
  record_ids: string[] | null;
  prefix: string;
  token_hash: string;
  previous_prefix: string | null;
  previous_token_hash: string | null;
  grace_period_ends_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  rate_limit_read: number | null;
  rate_limit_write: number | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewApiKeyRow = Omit<
  ApiKeyRow,
  'last_used_at' | 'revoked_at' | 'created_at' | 'updated_at' | 'previous_prefix' | 'previous_token_hash' | 'grace_period_ends_at'
>;

export type ApiKeyPatch = Partial<Omit<ApiKeyRow, 'id' | 'team_id' | 'created_at' | 'updated_at'>>;

/** A key as the resolve path needs it, with its user's current roles for personal keys. */
export interface ResolvableApiKeyRow extends ApiKeyRow {
  user_role: Role | null;
  user_on_call_role: Role | null;
}

export interface ApiKeyListQuery {
  filters: FilterCondition[];
  sort: SortField[];
  page: Page;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ApiKeysRepository {
  insert(row: NewApiKeyRow, tx?: Tx): Promise<ApiKeyRow>;
  /** A live (not revoked) key of the team; undefined for other teams' keys and non-UUID ids. */
  /** `forUpdate` (inside `tx`) locks the row until the transaction ends. */
  findLive(teamId: number, id: string, tx?: Tx, forUpdate?: boolean): Promise<ApiKeyRow | undefined>;
  /** Any live key regardless of team: operator commands only. */
  findLiveAnyTeam(id: string): Promise<ApiKeyRow | undefined>;
  list(teamId: number, query: ApiKeyListQuery): Promise<ListPage<ApiKeyRow>>;
  listAll(teamId: number): Promise<ApiKeyRow[]>;
  /** Updates a live key of the team; undefined when there is none. */
  update(teamId: number, id: string, patch: ApiKeyPatch, tx?: Tx): Promise<ApiKeyRow | undefined>;
  /** The live key holding `prefix` as its current or previous prefix, in one indexed query. */
  findForResolve(prefix: string): Promise<ResolvableApiKeyRow | undefined>;
  /** Records use; skipped when another request already did within `intervalMs`. */
  touchLastUsed(id: string, at: Date, intervalMs: number): Promise<void>;
  /** Unexpired live keys of the team, counted after locking the team's keys until `tx` ends. */
  countLiveLocked(teamId: number, tx: Tx): Promise<number>;
}

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
