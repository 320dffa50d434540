import type { Knex } from 'knex';
import type { TeamRow, TeamsRepository } from '../domain/teams.store.js';
import { executor } from './transaction.js';

export function createTeamsRepository(knex: Knex): TeamsRepository {
  return {
    async insert(values, tx) {
      const [row] = await executor(knex, tx)<TeamRow>('teams').insert(values).returning('*');
      return row;
    },
    async findById(id, tx) {
      return executor(knex, tx)<TeamRow>('teams').where({ id }).first();
    },
    async list() {
      return knex<TeamRow>('teams').orderBy('id');
    },
  };
}
