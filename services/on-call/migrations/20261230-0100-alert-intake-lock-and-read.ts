import type { Knex } from 'knex';

/**
 * The intake's lock-then-read pairs in one round trip each (docs/performance.md, "Alert
 * ingestion"): a deduplication key's (or a group's) advisory lock, then the open alert of
 * the key (the group's open leaders in its window). Not one SQL statement: a statement
 * reads with the snapshot it started with, before the lock was granted, so it would miss
 * the alert the lock's previous holder just committed (two alerts of one key, or two
 * leaders). In a volatile PL/pgSQL function each query takes its own snapshot (READ
 * COMMITTED), so the read after the lock sees what was committed while it waited.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION firewatch_lock_open_alert(lock_name text, p_team_id integer, p_scope text, p_key text)
    RETURNS SETOF alerts LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext(lock_name), hashtext(reverse(lock_name)));
      RETURN QUERY SELECT * FROM alerts
        WHERE team_id = p_team_id AND deduplication_scope = p_scope AND deduplication_key = p_key AND status <> 'resolved'
        LIMIT 1 FOR UPDATE;
    END $$`);
  await knex.raw(`
    CREATE FUNCTION firewatch_lock_group_leaders(lock_name text, p_team_id integer, p_group_id uuid, p_since timestamptz, p_summary text)
    RETURNS SETOF alerts LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext(lock_name), hashtext(reverse(lock_name)));
      IF p_summary IS NULL THEN
        RETURN QUERY SELECT * FROM alerts
          WHERE team_id = p_team_id AND alert_group_id = p_group_id AND is_group_leader_alert AND status <> 'resolved'
            AND created_at >= p_since
          ORDER BY created_at, id LIMIT 100;
      ELSE
        -- The digest reaches alerts_open_group_leaders_by_summary; the summary itself decides.
        RETURN QUERY SELECT * FROM alerts
          WHERE team_id = p_team_id AND alert_group_id = p_group_id AND is_group_leader_alert AND status <> 'resolved'
            AND md5(summary) = md5(p_summary) AND summary = p_summary AND created_at >= p_since
          ORDER BY created_at, id LIMIT 100;
      END IF;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION firewatch_lock_group_leaders(text, integer, uuid, timestamptz, text)');
  await knex.raw('DROP FUNCTION firewatch_lock_open_alert(text, integer, text, text)');
}
