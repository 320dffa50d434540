import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';

const OWNED = ['schedules', 'alert_sources'] as const;
const BATCH = 500;

/** The list with each free-text group name replaced by its team id, without repeats; null when nothing changes. */
function mapped(teamId: number, values: unknown): string[] | null {
  if (!Array.isArray(values)) return null;
  // legacyGroupId keeps a UUID (lower-cased) and makes a new id of anything else.
  const ids = [...new Set(values.map((v) => legacyGroupId(teamId, String(v))))];
  return JSON.stringify(ids) === JSON.stringify(values) ? null : ids;
}

/**
 * `owner_group_ids` on schedules and alert sources name teams from now on (issue 22):
 * each free-text name written before teams existed becomes the team id `legacyGroupId`
 * gives it, the function auth's migration used for the names on API keys, so a key of
 * group "ops" still sees the schedules and alert sources of "ops". UUIDs are kept,
 * lower-cased, as keys now hold them; two spellings of one become one. A name auth made
 * no team of stays on its records (docs/decisions.md, "Teams"). Rows keep their
 * `updated_at` and no event is written: the records did not change, only how their
 * groups are spelt. Unlike incident-config's 0101, no unique key here covers an owner
 * set, so lower-casing cannot make two rows collide. A rerun changes nothing.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of OWNED) {
    let after: string | null = null;
    for (;;) {
      const query = knex(table)
        .select('id', 'team_id', 'owner_group_ids')
        .whereRaw(`owner_group_ids <> '[]'::jsonb`)
        .orderBy('id')
        .limit(BATCH);
      const rows: { id: string; team_id: number; owner_group_ids: unknown }[] = await (after ? query.where('id', '>', after) : query);
      for (const row of rows) {
        const ids = mapped(Number(row.team_id), row.owner_group_ids);
        if (ids)
          await knex(table)
            .where({ id: row.id })
            .update({ owner_group_ids: JSON.stringify(ids) });
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1].id;
    }
  }
}

export async function down(): Promise<void> {
  // The names cannot be recovered from their ids: going back leaves the ids in place.
}
