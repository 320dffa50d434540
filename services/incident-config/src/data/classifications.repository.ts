import type { Knex } from 'knex';
import { applyVisibility, type Row } from '@firewatch/resource-kit';
import type { ClassificationStore } from '../domain/classifications/classification.lookup.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where each kind is named: an incident's column and the retrospective criteria's key. */
const NAMED_BY = {
  severity: { incidents: (q: Knex.QueryBuilder, id: string) => q.where('severity_id', id), criteria: 'severity_ids' },
  incident_type: {
    incidents: (q: Knex.QueryBuilder, id: string) => q.whereRaw('incident_type_ids @> ?::jsonb', [JSON.stringify([id])]),
    criteria: 'incident_type_ids',
  },
} as const;

/**
 * Severities' seeding and the in-use reads of severities and incident types. Teams known
 * to be seeded are remembered: the marker is never removed, so after a team's first read
 * a process asks nothing more. Only a marker seen outside any caller's transaction is
 * remembered: inside one it may be that transaction's own, which a rollback takes back.
 */
export function createClassificationsRepository(knex: Knex): ClassificationStore {
  const seeded = new Set<number>();
  // The first to insert the marker seeds; another racing waits on the marker's key until
  // that transaction ends, then inserts nothing (or, if it rolled back, seeds itself).
  const claim = async (trx: Knex.Transaction, teamId: number, seed: (tx: Knex.Transaction) => Promise<void>) => {
    const claimed = await trx.raw('INSERT INTO severity_seeds (team_id) VALUES (?) ON CONFLICT DO NOTHING RETURNING team_id', [teamId]);
    if (claimed.rows.length) await seed(trx);
  };
  const marked = async (db: Knex | Knex.Transaction, teamId: number) =>
    (await db('severity_seeds').where('team_id', teamId).first('team_id')) !== undefined;
  return {
    async seedOnce(tx: Knex.Transaction | undefined, teamId, seed) {
      if (seeded.has(teamId)) return;
      if (tx) {
        // The caller's transaction may yet roll back, taking the seed (or a marker it made
        // earlier in the same transaction) with it: neither is remembered.
        if (!(await marked(tx, teamId))) await claim(tx, teamId, seed);
        return;
      }
      if (!(await marked(knex, teamId))) await knex.transaction((trx) => claim(trx, teamId, seed));
      seeded.add(teamId);
    },
    async insertSeverities(tx: Knex.Transaction, teamId, rows) {
      if (!rows.length) return [];
      return (await tx('severities')
        .insert(rows.map((r) => ({ ...r, team_id: teamId })))
        .returning('*')) as Row[];
    },
    async byIds(tx: Knex.Transaction | undefined, teamId, table, ids) {
      const uuids = ids.filter((id) => UUID.test(id));
      if (!uuids.length) return [];
      return (await (tx ?? knex)(table).where('team_id', teamId).whereIn('id', uuids).orderBy(['position', 'created_at'])) as Row[];
    },
    async usersOf(tx: Knex.Transaction, teamId, kind, id, seen) {
      const named = NAMED_BY[kind];
      const naming = () => named.incidents(tx('incidents').where('incidents.team_id', teamId), id);
      const count = async (q: Knex.QueryBuilder) => Number(((await q.count({ count: '*' })) as { count: string }[])[0].count);
      const all = await count(naming());
      const seenOnes = naming();
      if (seen.incidents) applyVisibility(seenOnes, 'incidents', seen.incidents);
      if (seen.recordIds) seenOnes.whereIn('incidents.id', [...seen.recordIds]);
      const visible = seen.incidents || seen.recordIds ? await count(seenOnes) : all;
      const processes = (await tx('retrospective_processes')
        .where('team_id', teamId)
        .whereRaw('retrospective_process_matching_criteria -> ? @> ?::jsonb', [named.criteria, JSON.stringify([id])])
        .orderBy('name')
        .select('id', 'name')) as { id: string; name: string }[];
      const keyed = seen.recordIds && new Set(seen.recordIds.map((r) => r.toLowerCase()));
      const listed = keyed ? processes.filter((p) => keyed.has(p.id)) : processes;
      return {
        incidents: visible,
        unseenIncidents: all > visible,
        retrospectiveProcesses: listed.map((p) => p.name),
        unseenProcesses: listed.length < processes.length,
      };
    },
  };
}
