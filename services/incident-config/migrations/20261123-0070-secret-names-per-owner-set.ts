import type { Knex } from 'knex';

/**
 * A secret's name is unique per team and owner set, no longer per team (security issue
 * 19, finding 5): a group-scoped key creating `token` for its group got a 409 when
 * another group had a `token`, learning of a secret it cannot see. Within one owner set
 * a conflict is always with a secret the writer sees, since a group key's new or moved
 * secret must hold one of its groups. The set is compared as a set: order and repeats
 * do not count, and ids sort bytewise (`COLLATE "C"`), so the index never depends on
 * the database's locale.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION secret_owner_set(owner_group_ids jsonb) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(array_agg(DISTINCT g COLLATE "C" ORDER BY g COLLATE "C"), '{}') FROM jsonb_array_elements_text(owner_group_ids) AS g $$`);
  await knex.raw('DROP INDEX secrets_team_id_name_unique');
  await knex.raw('CREATE UNIQUE INDEX secrets_team_id_owner_set_name_unique ON secrets (team_id, secret_owner_set(owner_group_ids), name)');
}

/** Fails while two secrets of a team share a name (in different owner sets): rename one first. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX secrets_team_id_owner_set_name_unique');
  await knex.raw('CREATE UNIQUE INDEX secrets_team_id_name_unique ON secrets (team_id, name)');
  await knex.raw('DROP FUNCTION secret_owner_set(jsonb)');
}
