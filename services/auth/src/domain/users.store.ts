import type { Role } from '@firewatch/auth';
import type { ListPage } from '@firewatch/db';
import type { FilterCondition, Page, SortField } from '@firewatch/jsonapi';
import type { Tx } from './unit-of-work.js';

export interface UserRow {
  id: number;
  team_id: number;
  email: string;
  /** The display name, the full name: first and last name joined (users.rules.ts). */
  name: string;
  first_name: string | null;
  last_name: string | null;
  /** An IANA name (time-zone.rules.ts). */
  time_zone: string;
  /** The team's (tenant's) name, kept on the row by a trigger (migration 0701). */
  team_name: string | null;
  role: Role;
  on_call_role: Role;
  password_hash: string | null;
  is_service_account: boolean;
  /** Raised by every change (and the deletion): the order of this user's events. */
  version: number;
  created_at: Date;
  updated_at: Date;
}

export type NewUserRow = Pick<UserRow, 'team_id' | 'email' | 'name' | 'role' | 'on_call_role' | 'password_hash' | 'is_service_account'> &
  Partial<Pick<UserRow, 'first_name' | 'last_name' | 'time_zone'>>;
export type UserChanges = Partial<
  Pick<UserRow, 'email' | 'name' | 'first_name' | 'last_name' | 'time_zone' | 'role' | 'on_call_role' | 'password_hash'>
>;

export interface UserListQuery {
  filters: FilterCondition[];
  sort: SortField[];
  page: Page;
}

export interface UsersRepository {
  insert(values: NewUserRow, tx?: Tx): Promise<UserRow>;
  /** Applies `changes` and raises `version`; undefined when the team has no such user. */
  update(teamId: number, id: number, changes: UserChanges, tx: Tx): Promise<UserRow | undefined>;
  /** Deletes the user; returns it as it was, its version raised once more, or undefined. */
  remove(teamId: number, id: number, tx: Tx): Promise<UserRow | undefined>;
  /** True when a live OAuth application acts as this user (deleting it would take the application along). */
  heldByLiveApplication(id: number, tx: Tx): Promise<boolean>;
  /** Up to `limit` users with an id above `afterId` (of one team, or all), in id order. */
  page(afterId: number, limit: number, teamId?: number): Promise<UserRow[]>;
  /** One page of the team's users (`GET /v1/users`), by offset or by cursor. */
  list(teamId: number, query: UserListQuery): Promise<ListPage<UserRow>>;
  /** `forUpdate` (inside `tx`) locks the row until the transaction ends. */
  findInTeam(teamId: number, id: number, tx?: Tx, forUpdate?: boolean): Promise<UserRow | undefined>;
  /**
   * The user, share-locked until `tx` ends: a row naming it (an API key's `user_id`) can
   * then be written without a deletion slipping in between; a user deleted first is absent.
   */
  findInTeamForShare(teamId: number, id: number, tx: Tx): Promise<UserRow | undefined>;
  /**
   * The team's people with the admin role (service users aside), counted once no other
   * transaction can change who they are until `tx` ends: two admins removing each other
   * at once cannot leave the team without one.
   */
  countAdminsLocked(teamId: number, tx: Tx): Promise<number>;
  findByEmail(teamId: number, email: string): Promise<UserRow | undefined>;
  listByTeam(teamId: number): Promise<UserRow[]>;
  /** Any team's user by id (OAuth subjects are user ids). */
  findById(id: number): Promise<UserRow | undefined>;
  /** Users who may sign in with this email, in any team (emails are unique per team only). */
  findLoginCandidates(email: string): Promise<UserRow[]>;
}
