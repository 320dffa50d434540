import type { Knex } from 'knex';

const TABLES = ['services', 'functionalities'] as const;

/**
 * Names and external_ids of services and functionalities are unique per team and owner
 * set, as secrets' names are (0070; security issue 19, finding 5): a group key creating
 * "Payments" got a 409 when another group's "Payments" existed, and a bulk upsert the
 * entity's 422, learning of a record it cannot see. Within one owner set a conflict is
 * always with a record the writer sees. Names still compare case-insensitively. The owner
 * set comes last in each index, so lookups by team and name or external_id still use it.
 * The sets compare as 0070's `secret_owner_set` has them; it keeps its name, as renaming
 * it needs its owner, which provisioning does not hand to the service's role where an
 * earlier install migrated as the admin.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`DROP INDEX ${table}_team_id_name_unique`);
    await knex.raw(`DROP INDEX ${table}_team_id_external_id_unique`);
    await knex.raw(
      `CREATE UNIQUE INDEX ${table}_team_id_name_owner_set_unique ON ${table} (team_id, lower(name), secret_owner_set(owner_group_ids))`,
    );
    await knex.raw(
      `CREATE UNIQUE INDEX ${table}_team_id_external_id_owner_set_unique ON ${table} (team_id, external_id, secret_owner_set(owner_group_ids)) WHERE external_id IS NOT NULL`,
    );
  }
}

/** Fails while two records of a team share a name or an external_id (in different owner sets): rename one first. */
export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`DROP INDEX ${table}_team_id_name_owner_set_unique`);
    await knex.raw(`DROP INDEX ${table}_team_id_external_id_owner_set_unique`);
    await knex.raw(`CREATE UNIQUE INDEX ${table}_team_id_name_unique ON ${table} (team_id, lower(name))`);
    await knex.raw(
      `CREATE UNIQUE INDEX ${table}_team_id_external_id_unique ON ${table} (team_id, external_id) WHERE external_id IS NOT NULL`,
    );
  }
}
