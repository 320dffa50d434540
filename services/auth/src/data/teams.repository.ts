import type { Knex } from 'knex';
import { executor, type Tx } from './transaction.js';

export interface TeamRow {
  id: number;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface TeamsRepository {
  insert(values: { name: string }, tx?: Tx): Promise<TeamRow>;
  findById(id: number, tx?: Tx): Promise<TeamRow | undefined>;
  list(): Promise<TeamRow[]>;
}

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
