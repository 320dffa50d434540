import type { Knex } from 'knex';

/**
 * A same-summary alert group reads only the open leaders of the arriving alert's summary
 * (docs/on-call.md, "Grouping"): with alerts_open_group_leaders alone that read walked
 * every open leader of the group in its window (10 000 in bench:alerts) to keep one. Keyed
 * by the summary's digest, not the summary: a summary may be 10 000 characters, past what
 * a B-tree entry holds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX alerts_open_group_leaders_by_summary ON alerts (team_id, alert_group_id, md5(summary), created_at)
     WHERE is_group_leader_alert AND status <> 'resolved'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX alerts_open_group_leaders_by_summary');
}
