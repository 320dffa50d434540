import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

/**
 * The reference's `full_name_with_team` ("Jane Doe (Acme)"): each user row carries its
 * team's (tenant's) name, kept by triggers, so every read of a user (`returning('*')`
 * included) has it without a join in each of the users queries.
 */
export const usersTeamNameMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.alterTable('users', (t) => {
      t.text('team_name');
    });
    await knex.raw('UPDATE users SET team_name = teams.name FROM teams WHERE teams.id = users.team_id');
    await knex.raw(`
      CREATE FUNCTION users_team_name() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT name INTO NEW.team_name FROM teams WHERE id = NEW.team_id;
        RETURN NEW;
      END $$`);
    await knex.raw(
      'CREATE TRIGGER users_team_name BEFORE INSERT OR UPDATE OF team_id ON users FOR EACH ROW EXECUTE FUNCTION users_team_name()',
    );
    await knex.raw(`
      CREATE FUNCTION teams_name_to_users() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE users SET team_name = NEW.name WHERE team_id = NEW.id;
        RETURN NEW;
      END $$`);
    await knex.raw(
      'CREATE TRIGGER teams_name_to_users AFTER UPDATE OF name ON teams FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION teams_name_to_users()',
    );
  },
  async down(knex: Knex) {
    await knex.raw('DROP TRIGGER IF EXISTS teams_name_to_users ON teams');
    await knex.raw('DROP FUNCTION IF EXISTS teams_name_to_users()');
    await knex.raw('DROP TRIGGER IF EXISTS users_team_name ON users');
    await knex.raw('DROP FUNCTION IF EXISTS users_team_name()');
    await knex.schema.alterTable('users', (t) => {
      t.dropColumn('team_name');
    });
  },
};
