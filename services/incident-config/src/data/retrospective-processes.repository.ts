import type { Knex } from 'knex';
import type { Row } from '@firewatch/resource-kit';
import type { RetrospectiveProcessStore } from '../domain/retrospectives/retrospective-processes.lookup.js';

/** The default-process and copy_from reads of the retrospective processes declaration. */
export function createRetrospectiveProcessesRepository(): RetrospectiveProcessStore {
  return {
    async ensureDefault(tx: Knex.Transaction, teamId, { name, description }) {
      // Two first creates racing: the partial unique index lets one default in, the other does nothing.
      const result = await tx.raw(
        `INSERT INTO retrospective_processes (team_id, name, description, is_default) VALUES (?, ?, ?, true)
         ON CONFLICT (team_id) WHERE is_default DO NOTHING RETURNING *`,
        [teamId, name, description],
      );
      return (result.rows as Row[])[0];
    },
    async exists(tx: Knex.Transaction, teamId, id) {
      // FOR SHARE: the process copied from cannot be deleted before this transaction ends.
      return Boolean(await tx('retrospective_processes').where({ team_id: teamId, id }).forShare().first('id'));
    },
  };
}
