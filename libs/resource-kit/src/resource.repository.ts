import type { Knex } from 'knex';
import type { ListQuery } from '@firewatch/jsonapi';
import {
  applyFilters,
  createPreparedSelects,
  isUniqueViolation,
  listPage,
  nullableColumns,
  type PlainBinding,
  uniqueConstraintName,
} from '@firewatch/db';
import { ConflictError } from '@firewatch/errors';
import { pipelinedTransaction, preparedName } from '@firewatch/events';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row, Transaction } from './resource-shapes.js';
import { loadChildren, writeChildren } from './children.repository.js';
import { applyScope, type RowScope } from './row-scope.js';
import { columnFilters, slugFilters } from './slug-filters.js';
import { isUuid, slugCandidate } from './slug.js';

/** A unique violation as the 409 the declaration names; anything else is rethrown. */
function conflictFrom(def: AnyResourceDefinition, err: unknown): unknown {
  if (!isUniqueViolation(err)) return err;
  const constraint = uniqueConstraintName(err) ?? '';
  const known = def.unique?.[constraint];
  if (known) return new ConflictError(known.detail, { source: { pointer: known.pointer }, code: 'already_exists' });
  if (constraint.includes('_slug_')) {
    return new ConflictError('Another record of this team already has this slug.', {
      source: { pointer: '/data/attributes/slug' },
      code: 'slug_taken',
    });
  }
  return new ConflictError('The record conflicts with an existing one.', { code: 'already_exists' });
}

/** At most this many slugs are tried per query when a generated slug is taken. */
const SLUG_BATCH = 100;

// Lookups by id or slug are most of a service's reads; one cache serves every repository.
const prepared = createPreparedSelects();

/** Distinct column sets whose INSERT text a repository keeps (a declaration's creates use a few). */
const MAX_INSERT_TEXTS = 64;

// A knex Raw or query builder as a value: SQL of its own, which knex's builder embeds.
const isSqlValue = (v: unknown) => typeof v === 'object' && v !== null && typeof (v as { toSQL?: unknown }).toSQL === 'function';

const isPlain = (v: unknown): v is PlainBinding => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The values of a scope whose SQL text depends only on its `where` keys; undefined for any other. */
function plainScopeValues(scope: RowScope): PlainBinding[] | undefined {
  if (scope.recordIds || scope.ids || scope.narrowings?.length || !isPlain(scope.teamId)) return undefined;
  const values = Object.values(scope.where ?? {});
  return values.every(isPlain) ? [scope.teamId, ...values] : undefined;
}

/** One page of rows: the count of all that match on offset pages, the cursor after it when there is a next page. */
export interface ListResult {
  rows: Row[];
  total?: number;
  nextCursor?: string;
}

/** Persistence of one stored resource; every read is bound to a RowScope, every write to a team. */
export interface ResourceRepository {
  list(scope: RowScope, query: ListQuery): Promise<ListResult>;
  find(tx: Transaction | undefined, scope: RowScope, idOrSlug: string, forUpdate?: boolean): Promise<Row | undefined>;
  /** Rows matching `scope` (its `where` says which), children attached, oldest first; `forUpdate` locks them. */
  findAll(tx: Transaction | undefined, scope: RowScope, forUpdate?: boolean): Promise<Row[]>;
  /** The ids of the rows `scope` admits, share-locked until `tx` ends: none of them is deleted meanwhile. */
  idsForShare(tx: Transaction, scope: RowScope): Promise<Set<string>>;
  insert(tx: Transaction, row: Row): Promise<Row>;
  /** `insert`, except that a row a unique key refuses is not inserted (undefined) instead of a 409. */
  insertUnlessConflict(tx: Transaction, row: Row): Promise<Row | undefined>;
  update(tx: Transaction, teamId: number, id: string, patch: Row): Promise<Row>;
  remove(tx: Transaction, teamId: number, id: string): Promise<void>;
  /** The first of `base`, `base-2`, `base-3`, ... no record of the team has as its slug, `reserved` ones skipped. */
  freeSlug(tx: Transaction, teamId: number, base: string, reserved?: readonly string[]): Promise<string>;
  /** A transaction-scoped advisory lock on `name` within this table and team. */
  lock(tx: Transaction, teamId: number, name: string): Promise<void>;
  /** Serialises creates into one counted set for the transaction, then counts it. */
  lockAndCount(tx: Transaction, teamId: number, per?: { column: string; value: unknown }): Promise<number>;
  /** One past the highest `position` of the team's rows (with this `per` value), 1 when there are none. */
  nextPosition(tx: Transaction, teamId: number, per?: { column: string; value: unknown }): Promise<number>;
  /** Writes the child entries of the attributes that carry them. */
  writeChildren(tx: Transaction, ownerId: string, attributes: Row): Promise<void>;
  /** Attaches each row's children under their attribute names (and `expand`s them; `list` when they answer a list). */
  attachChildren(tx: Transaction | undefined, rows: Row[], list?: { include: readonly string[] }): Promise<Row[]>;
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

/** A knex-backed repository for a declared, stored resource; `deps` reach its `expand`. */
export function createResourceRepository(def: AnyResourceDefinition, knex: Knex, deps?: unknown): ResourceRepository {
  const table = def.table as string;
  const db = (tx: Transaction | undefined) => tx ?? knex;
  const json = new Set(def.jsonColumns ?? []);
  const children = Object.entries(def.children ?? {});
  const childAttributes = new Set(children.flatMap(([attribute, spec]) => [attribute, spec.input ?? attribute]));
  const toDb = (row: Row): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) {
      if (childAttributes.has(k)) continue;
      out[k] = json.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;
    }
    return out;
  };

  const insertTexts = new Map<string, string>();
  /**
   * The INSERT ... RETURNING * of `row`, the text knex's builder sends, kept per column set, and run as a
   * prepared statement in a pipelined transaction: building the query was a visible share of a
   * create's CPU, parsing and planning it of PostgreSQL's. Undefined for a row the builder must
   * build (no columns, an undefined value, a value that is SQL itself, a schema-qualified table).
   */
  function insertOf(tx: Transaction, row: Row, unlessConflict: boolean): Knex.Raw | undefined {
    const data = toDb(row);
    // In knex's order, so that the text (and an error's message, which quotes it) is the builder's.
    const columns = Object.keys(data).sort();
    if (!columns.length || table.includes('.') || columns.some((c) => data[c] === undefined || isSqlValue(data[c]))) return undefined;
    const key = `${unlessConflict ? '1' : '0'}${columns.join('"')}`;
    let text = insertTexts.get(key);
    if (text === undefined) {
      const quoted = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
      const conflict = unlessConflict ? ' on conflict do nothing' : '';
      text = `insert into "${table}" (${quoted}) values (${columns.map(() => '?').join(', ')})${conflict} returning *`;
      if (insertTexts.size < MAX_INSERT_TEXTS) insertTexts.set(key, text);
    }
    const name = preparedName(tx, text);
    const raw = tx.raw(text, columns.map((c) => data[c]) as Knex.ValueDict[]);
    return name === undefined ? raw : raw.options({ name });
  }

  // Most declarations have neither: their lookups skip an await and the array around the row.
  const attaches = children.length > 0 || def.hooks?.expand !== undefined;
  // The prepared lookups' keys of a scope without `where` (a GET by id or slug), made once.
  const lookupKeys = { id: `${table} id `, slug: `${table} slug ` };

  async function attachChildren(tx: Transaction | undefined, rows: Row[], list?: { include: readonly string[] }): Promise<Row[]> {
    for (const [attribute, spec] of children) {
      const byOwner = await loadChildren(
        db(tx),
        spec,
        rows.map((r) => String(r.id)),
      );
      for (const row of rows) row[attribute] = byOwner.get(String(row.id)) ?? [];
    }
    if (def.hooks?.expand && rows.length) await def.hooks.expand(rows, { tx, deps, list });
    return rows;
  }

  async function lock(tx: Transaction, teamId: number, name: string): Promise<void> {
    await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${table}:${teamId}:${name}`]);
  }

  return {
    async list(scope, query) {
      const q = applyScope(knex(table), table, scope);
      applyFilters(q, query.filters, columnFilters(def.filters ?? {}), slugFilters(table, def.filters ?? {}, scope.teamId));
      const sort = query.sort.length ? query.sort : (def.defaultSort ?? [{ field: 'created_at', direction: 'asc' }]);
      const nullable = await nullableColumns(knex, table);
      // The id breaks ties (pages stay disjoint), in the last field's direction so that one index serves both.
      const order = [
        ...sort.map((s) => ({ column: `${table}.${s.field}`, direction: s.direction, nullable: nullable.has(s.field) })),
        { column: `${table}.id`, direction: sort[sort.length - 1]?.direction ?? 'asc' },
      ];
      // A cursor continues the same list only: the caller's team and scope, the filters (in any order).
      const filters = query.filters.map((f) => JSON.stringify(f)).sort();
      const page = await listPage<Row>(knex, q, { table, order, page: query.page, binding: [scope, filters] });
      return { ...page, rows: await attachChildren(undefined, page.rows, { include: query.include }) };
    },
    async find(tx, scope, idOrSlug, forUpdate = false) {
      const column = isUuid(idOrSlug) ? 'id' : def.slug ? 'slug' : undefined;
      if (column === undefined) return undefined;
      const value = column === 'id' ? idOrSlug.toLowerCase() : idOrSlug;
      const build = () => applyScope(db(tx)(table), table, scope).where(`${table}.${column}`, value).select(`${table}.*`).limit(1);
      // Outside a transaction a plain scope runs as a prepared statement (a failed one
      // would abort a transaction, and writes are not the hot path).
      const scopeValues = tx || forUpdate ? undefined : plainScopeValues(scope);
      const rows = scopeValues
        ? await prepared.rows<Row>(
            knex,
            scope.where === undefined ? lookupKeys[column] : `${table} ${column} ${Object.keys(scope.where).join(',')}`,
            [...scopeValues, value, 1],
            build,
          )
        : ((await (forUpdate ? build().forUpdate() : build())) as Row[]);
      const row = rows[0];
      return row && attaches ? (await attachChildren(tx, [row]))[0] : row;
    },
    async findAll(tx, scope, forUpdate = false) {
      // One order for every caller: locks taken in it cannot deadlock two transactions.
      const q = applyScope(db(tx)(table), table, scope).select(`${table}.*`).orderBy(`${table}.created_at`).orderBy(`${table}.id`);
      if (forUpdate) q.forUpdate();
      return attachChildren(tx, (await q) as Row[]);
    },
    async idsForShare(tx, scope) {
      return new Set((await applyScope(tx(table), table, scope).forShare().pluck(`${table}.id`)) as string[]);
    },
    async insert(tx, row) {
      try {
        const raw = insertOf(tx, row, false);
        const [created] = raw ? ((await raw) as { rows: Row[] }).rows : await tx(table).insert(toDb(row)).returning('*');
        return created as Row;
      } catch (err) {
        throw conflictFrom(def, err);
      }
    },
    async insertUnlessConflict(tx, row) {
      try {
        const raw = insertOf(tx, row, true);
        const [created] = raw
          ? ((await raw) as { rows: Row[] }).rows
          : await tx(table).insert(toDb(row)).onConflict().ignore().returning('*');
        return created as Row | undefined;
      } catch (err) {
        throw conflictFrom(def, err);
      }
    },
    async update(tx, teamId, id, patch) {
      try {
        const [updated] = await tx(table)
          .where({ team_id: teamId, id })
          .update({ ...toDb(patch), updated_at: knex.fn.now() })
          .returning('*');
        return updated as Row;
      } catch (err) {
        throw conflictFrom(def, err);
      }
    },
    async remove(tx, teamId, id) {
      await tx(table).where({ team_id: teamId, id }).delete();
    },
    async freeSlug(tx, teamId, base, reserved = []) {
      // Candidates in growing batches through the (team_id, slug) index: `base` alone
      // first (a new name's slug is free), then 10, then 100 at a time. `LIKE 'base-%'`
      // cannot use that index under a non-C collation, and a long candidate list makes
      // PostgreSQL read the team's whole table instead: either way every create did.
      for (let from = 1, size = 1; ; from += size, size = Math.min(size * 10, SLUG_BATCH)) {
        const candidates = Array.from({ length: size }, (_, i) => slugCandidate(base, from + i));
        const taken = new Set((await tx(table).where('team_id', teamId).whereIn('slug', candidates).pluck('slug')) as string[]);
        const free = candidates.find((c) => !taken.has(c) && !reserved.includes(c));
        if (free !== undefined) return free;
      }
    },
    lock,
    async lockAndCount(tx, teamId, per) {
      await lock(tx, teamId, `count:${per ? JSON.stringify(per.value) : ''}`);
      const q = tx(table).where('team_id', teamId);
      if (per) q.where(per.column, per.value as never);
      const [{ count }] = (await q.count({ count: '*' })) as { count: string | number }[];
      return Number(count);
    },
    async nextPosition(tx, teamId, per) {
      const q = tx(table).where('team_id', teamId);
      if (per) q.where(per.column, per.value as never);
      const [{ max }] = (await q.max({ max: 'position' })) as { max: number | null }[];
      return max === null ? 1 : Number(max) + 1;
    },
    async writeChildren(tx, ownerId, attributes) {
      for (const [attribute, spec] of children) {
        const input = spec.input ?? attribute;
        const entries = attributes[input];
        if (!Array.isArray(entries)) continue;
        try {
          await writeChildren(tx, spec, ownerId, entries as Row[], `/data/attributes/${input}`);
        } catch (err) {
          // A child table's unique constraint (one stage per template) is named in `unique` too.
          throw conflictFrom(def, err);
        }
      }
    },
    attachChildren,
    // BEGIN goes with the first statement, the outbox rows with COMMIT: a create is two round trips.
    transaction: (fn) => pipelinedTransaction(knex, fn),
  };
}
