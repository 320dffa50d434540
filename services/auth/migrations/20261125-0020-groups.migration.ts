import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

const TEXT_COLUMNS = [
  'description',
  'color',
  'external_id',
  'backstage_id',
  'pagerduty_id',
  'pagerduty_service_id',
  'opsgenie_id',
  'opsgenie_team_id',
  'victor_ops_id',
  'pagertree_id',
  'cortex_id',
  'opslevel_id',
  'service_now_ci_sys_id',
  'alert_urgency_id',
  'auto_add_members_scope',
];

/**
 * Groups: the reference's `/v1/teams` inside a tenant (docs/api-contract.md). Members and
 * admins are JSON arrays of user ids of the tenant, kept in step with users by the user
 * deletion (docs/decisions.md, Groups); every other list is JSON too, as the kit stores them.
 */
export const groupsMigration: Migration = {
  async up(knex: Knex) {
    await knex.schema.createTable('groups', (t) => {
      t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
      t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
      t.text('name').notNullable();
      t.text('slug').notNullable();
      // Provenance (read-only in the API); what the API writes is `api`, what bulk_delete prunes by.
      t.text('managed_by').notNullable().defaultTo('api');
      for (const column of TEXT_COLUMNS) t.text(column);
      t.integer('position');
      for (const column of [
        'alerts_email_enabled',
        'alert_broadcast_enabled',
        'incident_broadcast_enabled',
        'auto_add_members_when_attached',
      ])
        t.boolean(column);
      for (const column of ['alert_broadcast_channel', 'incident_broadcast_channel']) t.jsonb(column);
      for (const column of ['notify_emails', 'user_ids', 'admin_ids', 'chat_channels', 'chat_aliases'])
        t.jsonb(column).notNullable().defaultTo('[]');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['team_id', 'slug'], { indexName: 'groups_team_id_slug_unique' });
      t.index(['team_id', 'created_at'], 'groups_team_id_created_at');
      t.index(['team_id', 'position'], 'groups_team_id_position');
    });
    await knex.raw('CREATE UNIQUE INDEX groups_team_id_name_unique ON groups (team_id, lower(name))');
    await knex.raw('CREATE UNIQUE INDEX groups_team_id_external_id_unique ON groups (team_id, external_id) WHERE external_id IS NOT NULL');
    // A user's deletion finds the groups listing them (`user_ids @> '[id]'`) without reading the team's every group.
    await knex.raw('CREATE INDEX groups_user_ids ON groups USING gin (user_ids jsonb_path_ops)');
  },
  async down(knex: Knex) {
    await knex.schema.dropTableIfExists('groups');
  },
};
