import type { Tx } from './unit-of-work.js';

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
