import type { Knex } from 'knex';
import type { CommunicationsStore, Named, NamedRecordsStore } from '../domain/communications.deps.js';

const named = (rows: unknown[]): Named[] => (rows as { id: string; name: string }[]).map((r) => ({ id: String(r.id), name: r.name }));

/** The reads of one table of the team's named records (types or stages). */
function namedRecords(knex: Knex, table: 'communications_types' | 'communications_stages'): NamedRecordsStore {
  return {
    async held(tx: Knex.Transaction, teamId, ids) {
      if (!ids.length) return [];
      return named(
        await tx(table)
          .where('team_id', teamId)
          .whereIn('id', [...ids])
          .forKeyShare()
          .select('id', 'name'),
      );
    },
    async namesOf(tx: Knex.Transaction | undefined, ids) {
      if (!ids.length) return new Map();
      const rows = (await (tx ?? knex)(table)
        .whereIn('id', [...ids])
        .select('id', 'name')) as { id: string; name: string }[];
      return new Map(rows.map((r) => [String(r.id), r.name]));
    },
  };
}

/** The cross-resource reads of the communications declarations; `knex` serves reads outside a transaction. */
export function createCommunicationsRepository(knex: Knex): CommunicationsStore {
  return {
    types: namedRecords(knex, 'communications_types'),
    stages: namedRecords(knex, 'communications_stages'),
    templates: {
      async ofType(tx: Knex.Transaction, teamId, typeId) {
        return named(
          await tx('communications_templates')
            .where({ team_id: teamId, communication_type_id: typeId })
            .orderBy('name')
            .select('id', 'name'),
        );
      },
      async ofStage(tx: Knex.Transaction, teamId, stageId) {
        return named(
          await tx('communications_templates as t')
            .join('communications_template_stages as s', 's.communications_template_id', 't.id')
            .where({ 't.team_id': teamId, 's.communication_stage_id': stageId })
            .distinct('t.id', 't.name')
            .orderBy('t.name'),
        );
      },
    },
  };
}
