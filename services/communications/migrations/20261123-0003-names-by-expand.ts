import type { Knex } from 'knex';

/**
 * The names templates show are now added by the declaration's `expand` (the resource kit
 * grew it), so the views that added them by subquery go: the kit reads the tables.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP VIEW IF EXISTS communications_template_stages_view');
  await knex.raw('DROP VIEW IF EXISTS communications_templates_view');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE VIEW communications_templates_view AS
    SELECT t.*, (SELECT c.name FROM communications_types c WHERE c.id = t.communication_type_id) AS communication_type_name
    FROM communications_templates t`);
  await knex.raw(`
    CREATE VIEW communications_template_stages_view AS
    SELECT s.*,
      (SELECT g.name FROM communications_stages g WHERE g.id = s.communication_stage_id) AS communication_stage_name,
      (SELECT t.name FROM communications_templates t WHERE t.id = s.communications_template_id) AS communication_template_name
    FROM communications_template_stages s`);
}
