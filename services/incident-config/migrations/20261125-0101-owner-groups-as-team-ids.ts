import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';

const OWNED = ['services', 'functionalities', 'secrets'] as const;
const BATCH = 500;

/** The list with each free-text group name replaced by its team id; null when nothing changes. */
function mapped(teamId: number, values: unknown): string[] | null {
  if (!Array.isArray(values)) return null;
  const ids = values.map((v) => legacyGroupId(teamId, String(v)));
  return ids.some((id, i) => id !== values[i]) ? ids : null;
}

/** Walks a table's rows in id order, BATCH at a time, and writes what `change` returns for each. */
async function rewrite(knex: Knex, table: string, column: string, where: string, change: (row: Record<string, unknown>) => unknown) {
  let after: string | null = null;
  for (;;) {
    const query = knex(table).select('id', 'team_id', column).whereRaw(where).orderBy('id').limit(BATCH);
    const rows: Record<string, unknown>[] = await (after ? query.where('id', '>', after) : query);
    for (const row of rows) {
      const value = change(row);
      if (value !== null)
        await knex(table)
          .where({ id: row.id })
          .update({ [column]: JSON.stringify(value) });
    }
    if (rows.length < BATCH) return;
    after = String(rows[rows.length - 1].id);
  }
}

/**
 * `owner_group_ids` and retrospective criteria's `group_ids` name teams from now on
 * (issue 22): each free-text name written before teams existed becomes the team id
 * `legacyGroupId` gives it, the function auth's own migration uses for the names on API
 * keys, so a key of group "ops" still owns the records of "ops". UUIDs are kept (lower-
 * cased). A name found only here names a team auth does not have: it stays on its records
 * (docs/decisions.md, "Teams"). Rows keep their `updated_at` and no event is written: the
 * records did not change, only how their groups are spelt.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of OWNED) {
    await rewrite(knex, table, 'owner_group_ids', `owner_group_ids <> '[]'::jsonb`, (row) =>
      mapped(Number(row.team_id), row.owner_group_ids),
    );
  }
  await rewrite(
    knex,
    'retrospective_processes',
    'retrospective_process_matching_criteria',
    `retrospective_process_matching_criteria -> 'group_ids' IS NOT NULL`,
    (row) => {
      const criteria = row.retrospective_process_matching_criteria as { group_ids: unknown };
      const ids = mapped(Number(row.team_id), criteria.group_ids);
      return ids && { ...criteria, group_ids: [...new Set(ids)] };
    },
  );
}

export async function down(): Promise<void> {
  // The names cannot be recovered from their ids: going back leaves the ids in place.
}
