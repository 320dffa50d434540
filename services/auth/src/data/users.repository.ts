import type { Knex } from 'knex';
import type { Role } from '@firewatch/auth';
import { isUniqueViolation } from '@firewatch/db';
import { ConflictError } from '@firewatch/errors';
import { executor, type Tx } from './transaction.js';

export interface UserRow {
  id: number;
  team_id: number;
  email: string;
  name: string;
  role: Role;
  on_call_role: Role;
  password_hash: string | null;
  is_service_account: boolean;
  /** Raised by every change (and the deletion): the order of this user's events. */
  version: number;
  created_at: Date;
  updated_at: Date;
}

export type NewUserRow = Pick<UserRow, 'team_id' | 'email' | 'name' | 'role' | 'on_call_role' | 'password_hash' | 'is_service_account'>;
export type UserChanges = Partial<Pick<UserRow, 'email' | 'name' | 'role' | 'on_call_role' | 'password_hash'>>;

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
  findInTeam(teamId: number, id: number, tx?: Tx): Promise<UserRow | undefined>;
  findByEmail(teamId: number, email: string): Promise<UserRow | undefined>;
  listByTeam(teamId: number): Promise<UserRow[]>;
  /** Any team's user by id (OAuth subjects are user ids). */
  findById(id: number): Promise<UserRow | undefined>;
  /** Users who may sign in with this email, in any team (emails are unique per team only). */
  findLoginCandidates(email: string): Promise<UserRow[]>;
}

export function createUsersRepository(knex: Knex): UsersRepository {
  return {
    async insert(values, tx) {
      try {
        const [row] = await executor(knex, tx)<UserRow>('users').insert(values).returning('*');
        return row;
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`A user with email ${values.email} already exists in this team.`);
        throw err;
      }
    },
    async update(teamId, id, changes, tx) {
      try {
        const [row] = await tx<UserRow>('users')
          .where({ team_id: teamId, id })
          .update({ ...changes, version: tx.raw('version + 1'), updated_at: tx.fn.now() } as never)
          .returning('*');
        return row;
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError(`A user with email ${changes.email} already exists in this team.`);
        throw err;
      }
    },
    async remove(teamId, id, tx) {
      const [row] = await tx<UserRow>('users').where({ team_id: teamId, id }).delete().returning('*');
      return row ? { ...row, version: row.version + 1 } : undefined;
    },
    async heldByLiveApplication(id, tx) {
      return Boolean(await tx('oauth_applications').where({ service_user_id: id }).whereNull('revoked_at').first('id'));
    },
    async page(afterId, limit, teamId) {
      const q = knex<UserRow>('users').where('id', '>', afterId).orderBy('id').limit(limit);
      return teamId === undefined ? q : q.where({ team_id: teamId });
    },
    async findInTeam(teamId, id, tx) {
      return executor(knex, tx)<UserRow>('users').where({ team_id: teamId, id }).first();
    },
    async findByEmail(teamId, email) {
      return knex<UserRow>('users').where({ team_id: teamId, email: email.toLowerCase() }).first();
    },
    async listByTeam(teamId) {
      return knex<UserRow>('users').where({ team_id: teamId }).orderBy('id');
    },
    async findById(id) {
      if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return undefined;
      return knex<UserRow>('users').where({ id }).first();
    },
    async findLoginCandidates(email) {
      return knex<UserRow>('users')
        .where({ email: email.trim().toLowerCase(), is_service_account: false })
        .whereNotNull('password_hash')
        .orderBy('team_id')
        .limit(20);
    },
  };
}
