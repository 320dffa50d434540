import type { Knex } from 'knex';

/**
 * The paging engine's durable state (docs/paging.md, "The paging engine"): one row per
 * policy an alert pages in one run (a re-trigger starts a new run), holding the path it
 * follows (as it was when paging began, so an edit does not move a page half-way), the
 * level and round it is at and when its next step is due — a timer the paging job claims
 * FOR UPDATE SKIP LOCKED — and the notification attempts each step makes, due at their
 * rule's delay and sent by the notification job outside any transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_pagings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    // Which start of the alert's paging (1, then one more per re-trigger).
    t.integer('run').notNullable();
    t.uuid('escalation_policy_id');
    t.jsonb('plan').notNullable();
    t.integer('level_index').notNullable().defaultTo(0);
    t.integer('round').notNullable().defaultTo(0);
    t.timestamp('next_step_at', { useTz: true });
    t.text('state').notNullable();
    t.text('stopped_reason');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_id', 'run']);
  });
  await knex.raw("ALTER TABLE alert_pagings ADD CONSTRAINT alert_pagings_state_check CHECK (state IN ('active', 'stopped', 'ended'))");
  await knex.raw(`CREATE INDEX alert_pagings_due ON alert_pagings (next_step_at) WHERE state = 'active'`);

  await knex.schema.createTable('alert_notification_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('alert_id').notNullable().references('alerts.id').onDelete('CASCADE');
    t.uuid('alert_paging_id').notNullable().references('alert_pagings.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.text('channel').notNullable();
    t.text('address').notNullable();
    t.uuid('contact_method_id');
    t.text('notification_type').notNullable();
    t.integer('level_position');
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.text('status').notNullable();
    t.integer('tries').notNullable().defaultTo(0);
    // When a replica took it to send: another takes it over only after a lease ran out.
    t.timestamp('claimed_at', { useTz: true });
    t.text('provider_id');
    t.text('reason');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['alert_id', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE alert_notification_attempts ADD CONSTRAINT alert_notification_attempts_status_check
     CHECK (status IN ('due', 'sending', 'sent', 'failed', 'skipped', 'cancelled'))`,
  );
  await knex.raw(`CREATE INDEX alert_notification_attempts_due ON alert_notification_attempts (due_at) WHERE status IN ('due', 'sending')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alert_notification_attempts');
  await knex.schema.dropTable('alert_pagings');
}
