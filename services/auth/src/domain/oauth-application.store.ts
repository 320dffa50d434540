import type { ListPage } from '@firewatch/db';
import type { Page } from '@firewatch/jsonapi';
import type { Tx } from './unit-of-work.js';

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
