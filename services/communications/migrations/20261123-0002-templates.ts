import type { Knex } from 'knex';

/**
 * Templates and their per-stage contents. A type or stage a template uses cannot be
 * deleted (RESTRICT; the API refuses first with a 422 naming the templates).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('communications_templates', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('description');
    t.integer('position').notNullable();
    t.uuid('communication_type_id').notNullable().references('id').inTable('communications_types').onDelete('RESTRICT');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'position']);
    t.index(['communication_type_id']);
  });
  await knex.raw('CREATE UNIQUE INDEX communications_templates_team_id_name_unique ON communications_templates (team_id, lower(name))');

  await knex.schema.createTable('communications_template_stages', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('communications_template_id').notNullable().references('id').inTable('communications_templates').onDelete('CASCADE');
    t.uuid('communication_stage_id').notNullable().references('id').inTable('communications_stages').onDelete('RESTRICT');
    t.text('email_subject');
    t.text('email_body');
    t.text('chat_content');
    t.text('sms_content');
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // One content per stage and template.
    t.unique(['communications_template_id', 'communication_stage_id']);
    t.index(['communication_stage_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('communications_template_stages');
  await knex.schema.dropTable('communications_templates');
}
