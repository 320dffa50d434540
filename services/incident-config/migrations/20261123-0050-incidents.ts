import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('incidents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('title').notNullable();
    t.text('slug').notNullable();
    t.text('kind').notNullable().defaultTo('normal');
    t.text('status').notNullable();
    t.boolean('private').notNullable().defaultTo(false);
    t.text('summary');
    t.text('public_title');
    t.text('severity_id');
    for (const column of ['service_ids', 'environment_ids', 'functionality_ids']) t.jsonb(column).notNullable().defaultTo('[]');
    t.jsonb('labels').notNullable().defaultTo('{}');
    // Set by the status actions (incident-status.machine.ts), never written directly.
    for (const column of ['started_at', 'in_triage_at', 'mitigated_at', 'resolved_at', 'cancelled_at'])
      t.timestamp(column, { useTz: true });
    for (const column of ['mitigation_message', 'resolution_message', 'cancellation_message']) t.text(column);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'created_at']);
    t.index(['team_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('incidents');
}
