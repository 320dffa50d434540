import type { Knex } from 'knex';
import { isUniqueViolation, listPage, lockForTransaction } from '@firewatch/db';
import { ConflictError } from '@firewatch/errors';
import type { UserRow, UsersRepository } from '../domain/users.store.js';
import { executor } from './transaction.js';
import { applyUserFilters, userOrder } from './users.query.js';

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
    async list(teamId, query) {
      const q = knex('users').where({ team_id: teamId });
      applyUserFilters(q, query.filters);
      // The path is bound too: a cursor of another list of the team (API keys) is no cursor here.
      const binding = ['users', teamId, query.filters.map((f) => JSON.stringify(f)).sort()];
      return listPage<UserRow>(knex, q, { table: 'users', order: userOrder(query.sort), page: query.page, binding });
    },
    async findInTeam(teamId, id, tx, forUpdate = false) {
      const q = executor(knex, tx)<UserRow>('users').where({ team_id: teamId, id }).first();
      return forUpdate ? q.forUpdate() : q;
    },
    async findInTeamForShare(teamId, id, tx) {
      return tx<UserRow>('users').where({ team_id: teamId, id }).first().forShare();
    },
    async countAdminsLocked(teamId, tx) {
      await lockForTransaction(tx, 'users_admins', teamId);
      const [{ count }] = await tx('users')
        .where({ team_id: teamId, role: 'admin', is_service_account: false })
        .count<{ count: string }[]>({ count: '*' });
      return Number(count);
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
