import type { Knex } from 'knex';

/**
 * on-call's read model of the records alert groups target that other services own:
 * services and functionalities (incident-config's `service.*`, `functionality.*`) and
 * teams (auth's `group.*`), so that a target named by its id alone gets its type
 * (docs/on-call.md, "Targets"). Per team: another team's id is unknown. `changed_at` is
 * the record's time of the state stored; an event is applied only when newer, and a
 * deletion stays as a tombstone (`deleted_at`) that no late event revives.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('targets', (t) => {
    t.integer('team_id').notNullable();
    t.text('target_type').notNullable();
    t.uuid('target_id').notNullable();
    t.text('name');
    t.timestamp('changed_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The type is part of the key: two families never share an id, and if they did, neither would be mistaken for the other.
    t.primary(['team_id', 'target_id', 'target_type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('targets');
}
