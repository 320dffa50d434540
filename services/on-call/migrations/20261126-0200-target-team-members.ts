import type { Knex } from 'knex';

/**
 * The members and admins of each team (auth's group) in the targets read model, as its
 * `group.*` events carry them (`user_ids`, `admin_ids`), so that an escalation level
 * naming a team pages its people (docs/paging.md, "Who is paged, and who is on call").
 * Empty for services and functionalities, and for teams until their next event (or
 * `firewatch groups announce`). Kept with the row's `changed_at`: the newest state wins.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('targets', (t) => {
    t.specificType('member_ids', 'integer[]').notNullable().defaultTo('{}');
    t.specificType('admin_ids', 'integer[]').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('targets', (t) => {
    t.dropColumn('member_ids');
    t.dropColumn('admin_ids');
  });
}
