import type { Knex } from 'knex';
import { ValidationError, type ValidationIssue } from '@firewatch/errors';
import type { ChildSpec, Row } from './resource-shapes.js';
import { jsonValue } from './json-value.js';

type Db = Knex | Knex.Transaction;

const plain = (v: unknown): unknown => jsonValue(v) ?? null;
const sameValues = (spec: ChildSpec, entry: Row, row: Row) =>
  spec.columns.every((c) => JSON.stringify(plain(entry[c])) === JSON.stringify(plain(row[c])));

function columnsOf(spec: ChildSpec, entry: Row, all: boolean): Row {
  const json = new Set(spec.jsonColumns ?? []);
  const out: Row = {};
  for (const c of spec.columns) {
    if (!all && !(c in entry)) continue;
    const v = entry[c] ?? null;
    out[c] = json.has(c) && v !== null ? JSON.stringify(v) : v;
  }
  return out;
}

/** One child row as the response shows it. */
export function presentChild(spec: ChildSpec, row: Row): unknown {
  if (spec.present) return spec.present(row);
  return Object.fromEntries([['id', String(row.id)], ...spec.columns.map((c) => [c, plain(row[c])])]);
}

/** The child rows of each owner, in the declared order. */
export async function loadChildren(db: Db, spec: ChildSpec, ownerIds: readonly string[]): Promise<Map<string, Row[]>> {
  const byOwner = new Map<string, Row[]>(ownerIds.map((id) => [id, []]));
  if (!ownerIds.length) return byOwner;
  const q = db(spec.table)
    .whereIn(spec.key, [...ownerIds])
    .orderBy(spec.orderBy ?? 'position', 'asc');
  const rows = (await q.orderBy('created_at', 'asc').orderBy('id', 'asc')) as Row[];
  for (const row of rows) byOwner.get(String(row[spec.key]))?.push(row);
  return byOwner;
}

/**
 * Writes the entries sent for one owner as the spec's mode says (see ChildSpec). An
 * `id` that is not one of this owner's rows is a 422 at `pointer/<index>/id`, before
 * anything is written.
 */
export async function writeChildren(db: Db, spec: ChildSpec, ownerId: string, entries: readonly Row[], pointer: string): Promise<void> {
  const current = (await db(spec.table).where(spec.key, ownerId).forUpdate()) as Row[];
  const byId = new Map(current.map((r) => [String(r.id), r]));
  const issues: ValidationIssue[] = [];
  entries.forEach((e, i) => {
    if (e.id !== undefined && !byId.has(String(e.id).toLowerCase())) {
      issues.push({
        pointer: `${pointer}/${i}/id`,
        detail: `No entry with id "${String(e.id).toLowerCase()}" belongs to this record.`,
        code: 'unknown_child',
      });
    }
  });
  if (issues.length) throw new ValidationError(issues);

  // Rows named by id are claimed first, so an equal entry without an id cannot take them.
  const kept = new Set(entries.filter((e) => e.id !== undefined && e._destroy !== true).map((e) => String(e.id).toLowerCase()));
  // The kit keeps the order entries were sent in, unless the entries carry a position.
  const ordered = !spec.columns.includes('position');
  let next = Math.max(-1, ...current.map((r) => Number(r.position ?? -1))) + 1;
  const positionOf = (index: number) => (!ordered ? {} : { position: spec.mode === 'replace' ? index : next++ });
  const inserts: Row[] = [];
  for (const [index, entry] of entries.entries()) {
    if (entry.id !== undefined) {
      const id = String(entry.id).toLowerCase();
      if (spec.mode === 'by_id' && entry._destroy === true) {
        await db(spec.table).where({ id }).delete();
        continue;
      }
      const patch = { ...columnsOf(spec, entry, spec.mode === 'replace'), ...(spec.mode === 'replace' ? positionOf(index) : {}) };
      if (Object.keys(patch).length)
        await db(spec.table)
          .where({ id })
          .update({ ...patch, updated_at: db.fn.now() });
      continue;
    }
    // Replace mode: an entry equal to an unclaimed row keeps that row, and its id.
    const same = spec.mode === 'replace' ? current.find((r) => !kept.has(String(r.id)) && sameValues(spec, entry, r)) : undefined;
    if (same) {
      kept.add(String(same.id));
      if (ordered && Number(same.position) !== index) await db(spec.table).where({ id: same.id }).update(positionOf(index));
    } else inserts.push({ ...columnsOf(spec, entry, true), ...positionOf(index), [spec.key]: ownerId });
  }
  if (spec.mode === 'replace') {
    const gone = current.map((r) => String(r.id)).filter((id) => !kept.has(id));
    if (gone.length) await db(spec.table).whereIn('id', gone).delete();
  }
  if (inserts.length) await db(spec.table).insert(inserts);
}
