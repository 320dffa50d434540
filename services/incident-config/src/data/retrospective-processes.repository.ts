import type { Knex } from 'knex';
import type { Row } from '@firewatch/resource-kit';
import type { RetrospectiveProcessStore } from '../domain/retrospectives/retrospective-processes.lookup.js';

/** The default-process and copy_from reads of the retrospective processes declaration. */
export function createRetrospectiveProcessesRepository(): RetrospectiveProcessStore {
  return {
    async ensureDefault(tx: Knex.Transaction, teamId, { name, description }) {
      // Two first creates racing: one default gets in, the other does nothing. No conflict
      // target: the loser may meet the winner's row on the name index rather than on the
      // one-default index (the arbiter is checked first, the name when the row goes in),
      // which a targeted DO NOTHING would raise as a unique violation (a 500).
      const result = await tx.raw(
        `INSERT INTO retrospective_processes (team_id, name, description, is_default) VALUES (?, ?, ?, true)
         ON CONFLICT DO NOTHING RETURNING *`,
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
