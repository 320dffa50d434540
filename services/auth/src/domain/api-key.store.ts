import type { ApiKeyKind, Capability, Role } from '@firewatch/auth';
import type { ListPage } from '@firewatch/db';
import type { FilterCondition, Page, SortField } from '@firewatch/jsonapi';
import type { Tx } from './unit-of-work.js';

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
  /** Takes `groupId` out of the `group_ids` of the team's live keys; the keys changed. */
  removeGroup(teamId: number, groupId: string, tx: Tx): Promise<ApiKeyRow[]>;
  /** Unexpired live keys of the team, counted after locking the team's keys until `tx` ends. */
  countLiveLocked(teamId: number, tx: Tx): Promise<number>;
}
