import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';
import { isUniqueViolation } from '@firewatch/db';

const OWNED = ['services', 'functionalities', 'secrets'] as const;
const BATCH = 500;

/**
 * The list with each free-text group name replaced by its team id; null when nothing
 * changes. `asWritten` keeps UUIDs in the case they were written in (see `ownersOf`).
 */
function mapped(teamId: number, values: unknown, asWritten = false): string[] | null {
  if (!Array.isArray(values)) return null;
  const ids = values.map((v) => {
    const id = legacyGroupId(teamId, String(v));
    // legacyGroupId keeps a UUID (lower-cased) and makes a new id of anything else.
    return asWritten && id === String(v).toLowerCase() ? String(v) : id;
  });
  return ids.some((id, i) => id !== values[i]) ? ids : null;
}

/**
 * Tries each value in turn, under a savepoint so the migration's transaction goes on,
 * until a unique key takes one; when none is taken, the row stays as it was.
 */
async function writeFirstTaken(knex: Knex, table: string, id: unknown, column: string, values: readonly unknown[]): Promise<void> {
  for (const value of values) {
    try {
      await knex.transaction((sp) =>
        sp(table)
          .where({ id })
          .update({ [column]: JSON.stringify(value) }),
      );
      return;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}

/** Walks a table's rows in id order, BATCH at a time, and writes the first of `change`'s values a unique key takes. */
async function rewrite(knex: Knex, table: string, column: string, where: string, change: (row: Record<string, unknown>) => unknown[]) {
  let after: string | null = null;
  for (;;) {
    const query = knex(table).select('id', 'team_id', column).whereRaw(where).orderBy('id').limit(BATCH);
    const rows: Record<string, unknown>[] = await (after ? query.where('id', '>', after) : query);
    for (const row of rows) {
      const values = change(row);
      if (values.length) await writeFirstTaken(knex, table, row.id, column, values);
    }
    if (rows.length < BATCH) return;
    after = String(rows[rows.length - 1].id);
  }
}

/**
 * A record's owners as team ids, for the pass that takes records whose UUIDs are all
 * lower-case already (`first`) or the other one. Lower-casing makes one owner set of two
 * that differed only in a UUID's case (`["ABC…"]`, `["abc…"]`), which the per-owner-set
 * unique keys refuse for two records of one name or external_id, and the service would
 * never start. The records spelt as PostgreSQL spells UUIDs go first and keep theirs; a
 * later one that would collide keeps its UUIDs as written (no key holds that spelling any
 * more, auth lower-cased theirs), its names still becoming team ids.
 */
function ownersOf(first: boolean) {
  return (row: Record<string, unknown>): string[][] => {
    const teamId = Number(row.team_id);
    const [lower, asWritten] = [mapped(teamId, row.owner_group_ids), mapped(teamId, row.owner_group_ids, true)];
    if (!lower || first !== (JSON.stringify(lower) === JSON.stringify(asWritten))) return [];
    // Without names to map, keeping the UUIDs as written is leaving the row as it was.
    return first || !asWritten ? [lower] : [lower, asWritten];
  };
}

/**
 * `owner_group_ids` and retrospective criteria's `group_ids` name teams from now on
 * (issue 22): each free-text name written before teams existed becomes the team id
 * `legacyGroupId` gives it, the function auth's own migration uses for the names on API
 * keys, so a key of group "ops" still owns the records of "ops". UUIDs are kept (lower-
 * cased). A name found only here names a team auth does not have: it stays on its records
 * (docs/decisions.md, "Teams"). Rows keep their `updated_at` and no event is written: the
 * records did not change, only how their groups are spelt. Where lower-casing a UUID
 * would make two records of one name share an owner set, the one not spelt in lower case
 * keeps its spelling (`ownersOf`).
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of OWNED) {
    for (const first of [true, false]) await rewrite(knex, table, 'owner_group_ids', `owner_group_ids <> '[]'::jsonb`, ownersOf(first));
  }
  await rewrite(
    knex,
    'retrospective_processes',
    'retrospective_process_matching_criteria',
    `retrospective_process_matching_criteria -> 'group_ids' IS NOT NULL`,
    (row) => {
      const criteria = row.retrospective_process_matching_criteria as { group_ids: unknown };
      const ids = mapped(Number(row.team_id), criteria.group_ids);
      return ids ? [{ ...criteria, group_ids: [...new Set(ids)] }] : [];
    },
  );
}

export async function down(): Promise<void> {
  // The names cannot be recovered from their ids: going back leaves the ids in place.
}
