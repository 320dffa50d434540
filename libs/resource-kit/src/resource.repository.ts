import type { Knex } from 'knex';
import type { ListQuery } from '@firewatch/jsonapi';
import type { ResourceDefinition, Row } from './resource-definition.js';
import { isUuid } from './slug.js';
import { applyFilters, escapeLike, isUniqueViolation, pageWithTotal, uniqueConstraintName } from '@firewatch/db';
import { ConflictError } from '@firewatch/errors';

/** A unique violation as the 409 the declaration names; anything else is rethrown. */
function conflictFrom(def: ResourceDefinition, err: unknown): unknown {
  if (!isUniqueViolation(err)) return err;
  const constraint = uniqueConstraintName(err) ?? '';
  const known = def.unique?.[constraint];
  if (known) return new ConflictError(known.detail, { source: { pointer: known.pointer }, code: 'already_exists' });
  if (constraint.includes('_slug_')) {
    return new ConflictError('Another record of this team already has this slug.', { source: { pointer: '/data/attributes/slug' }, code: 'slug_taken' });
  }
  return new ConflictError('The record conflicts with an existing one.', { code: 'already_exists' });
}

export interface ListResult {
  rows: Row[];
  total: number;
}

/** Persistence of one declared resource; every query is bound to a team. */
export interface ResourceRepository {
  list(teamId: number, query: ListQuery, recordIds: string[] | null): Promise<ListResult>;
  find(tx: unknown, teamId: number, idOrSlug: string, forUpdate?: boolean): Promise<Row | undefined>;
  insert(tx: unknown, row: Row): Promise<Row>;
  update(tx: unknown, teamId: number, id: string, patch: Row): Promise<Row>;
  remove(tx: unknown, teamId: number, id: string): Promise<void>;
  slugsLike(tx: unknown, teamId: number, base: string): Promise<string[]>;
  transaction<T>(fn: (tx: unknown) => Promise<T>): Promise<T>;
}

/** A knex-backed repository for a declared resource. */
export function createResourceRepository(def: ResourceDefinition, knex: Knex): ResourceRepository {
  const db = (tx: unknown) => (tx as Knex.Transaction | undefined) ?? knex;
  const json = new Set(def.jsonColumns ?? []);
  const toDb = (row: Row): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) out[k] = json.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;
    return out;
  };

  return {
    async list(teamId, query, recordIds) {
      const q = knex(def.table).where('team_id', teamId);
      if (recordIds) q.whereIn('id', recordIds);
      applyFilters(q, query.filters, def.filters ?? {});
      const sort = query.sort.length ? query.sort : def.defaultSort ?? [{ field: 'created_at', direction: 'asc' }];
      for (const s of sort) q.orderBy(s.field, s.direction, s.direction === 'asc' ? 'last' : 'first');
      q.orderBy('id', 'asc'); // a stable order makes pages disjoint
      return pageWithTotal<Row>(knex, q, def.table, query.page);
    },
    async find(tx, teamId, idOrSlug, forUpdate = false) {
      const q = db(tx)(def.table).where('team_id', teamId).first();
      if (isUuid(idOrSlug)) q.where('id', idOrSlug.toLowerCase());
      else if (def.slug) q.where('slug', idOrSlug);
      else return undefined;
      if (forUpdate) q.forUpdate();
      return (await q) as Row | undefined;
    },
    async insert(tx, row) {
      try {
        const [created] = await db(tx)(def.table).insert(toDb(row)).returning('*');
        return created as Row;
      } catch (err) {
        throw conflictFrom(def, err);
      }
    },
    async update(tx, teamId, id, patch) {
      try {
        const [updated] = await db(tx)(def.table)
          .where({ team_id: teamId, id })
          .update({ ...toDb(patch), updated_at: knex.fn.now() })
          .returning('*');
        return updated as Row;
      } catch (err) {
        throw conflictFrom(def, err);
      }
    },
    async remove(tx, teamId, id) {
      await db(tx)(def.table).where({ team_id: teamId, id }).delete();
    },
    async slugsLike(tx, teamId, base) {
      const rows = await db(tx)(def.table)
        .where('team_id', teamId)
        .where((w) => w.where('slug', base).orWhereLike('slug', `${escapeLike(base)}-%`))
        .pluck('slug');
      return rows as string[];
    },
    transaction: (fn) => knex.transaction((trx) => fn(trx)),
  };
}
