import type { Knex } from 'knex';

/**
 * Users' contact methods and notification rules (issue 22): email addresses, phone
 * numbers (E.164) and the rules that say which of them a page uses after how long. Each
 * row belongs to a user of the users read model; a user deleted in auth takes them with
 * it (the user sync deletes them, each with its event, so the foreign keys' cascade is
 * only a backstop). A rule names its user's contact methods, which cannot be deleted
 * while it does (RESTRICT; the API answers 422 first). The read model also keeps the
 * user's time zone from auth's events, for the paging engine.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  const owned = (t: Knex.CreateTableBuilder) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.integer('user_id').notNullable().references('user_id').inTable('users').onDelete('CASCADE');
  };
  await knex.schema.alterTable('users', (t) => {
    t.text('time_zone');
  });
  await knex.schema.createTable('user_email_addresses', (t) => {
    owned(t);
    t.text('email').notNullable();
    t.boolean('primary').notNullable().defaultTo(false);
    timestamps(t);
    t.index(['user_id', 'created_at']);
  });
  // Addresses differ only in case reach the same mailbox in practice: one per user.
  await knex.raw('CREATE UNIQUE INDEX user_email_addresses_user_email_unique ON user_email_addresses (user_id, lower(email))');
  await knex.schema.createTable('user_phone_numbers', (t) => {
    owned(t);
    t.text('phone').notNullable();
    t.boolean('primary').notNullable().defaultTo(false);
    t.timestamp('verified_at', { useTz: true });
    timestamps(t);
    t.unique(['user_id', 'phone'], { indexName: 'user_phone_numbers_user_phone_unique' });
    t.index(['user_id', 'created_at']);
  });
  await knex.schema.createTable('user_notification_rules', (t) => {
    owned(t);
    t.integer('delay').notNullable().defaultTo(0);
    t.integer('position').notNullable();
    t.uuid('user_email_address_id').references('id').inTable('user_email_addresses').onDelete('RESTRICT');
    t.uuid('user_call_number_id').references('id').inTable('user_phone_numbers').onDelete('RESTRICT');
    t.uuid('user_sms_number_id').references('id').inTable('user_phone_numbers').onDelete('RESTRICT');
    t.jsonb('enabled_contact_types').notNullable();
    t.text('notification_type').notNullable().defaultTo('audible');
    timestamps(t);
    t.index(['user_id', 'position']);
    // Deleting a contact method looks for the rules naming it.
    t.index(['user_email_address_id']);
    t.index(['user_call_number_id']);
    t.index(['user_sms_number_id']);
  });
  await knex.raw(
    "ALTER TABLE user_notification_rules ADD CONSTRAINT user_notification_rules_type_check CHECK (notification_type IN ('audible', 'quiet'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_notification_rules');
  await knex.schema.dropTable('user_phone_numbers');
  await knex.schema.dropTable('user_email_addresses');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('time_zone');
  });
}
