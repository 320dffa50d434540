import type { Knex } from 'knex';

/**
 * Schedules and what hangs on them (issue 12): rotations, their members and active days,
 * and override shifts. Every child row carries team_id, as the kit scopes every read by
 * team; deleting a schedule deletes the rest through the foreign keys (the kit announces
 * each row, see `cascades`).
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };
  await knex.schema.createTable('schedules', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('description');
    t.boolean('all_time_coverage').notNullable().defaultTo(false);
    // auth's user id; checked against the users read model on write, not a foreign key (it arrives by events).
    t.integer('owner_user_id').notNullable();
    t.jsonb('owner_group_ids').notNullable().defaultTo('[]');
    timestamps(t);
    t.index(['team_id', 'created_at']);
  });

  await knex.schema.createTable('schedule_rotations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('schedule_id').notNullable().references('id').inTable('schedules').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('position').notNullable();
    t.text('schedule_rotationable_type').notNullable();
    t.jsonb('schedule_rotationable_attributes').notNullable();
    t.text('time_zone').notNullable().defaultTo('Etc/UTC');
    t.timestamp('start_time', { useTz: true });
    t.timestamp('end_time', { useTz: true });
    t.boolean('active_all_week').notNullable().defaultTo(true);
    t.jsonb('active_days').notNullable().defaultTo('[]');
    t.text('active_time_type').notNullable().defaultTo('all_day');
    t.jsonb('active_time_attributes').notNullable().defaultTo('[]');
    timestamps(t);
    t.index(['schedule_id', 'position']);
  });
  await knex.raw(`ALTER TABLE schedule_rotations ADD CONSTRAINT schedule_rotations_type_check CHECK (schedule_rotationable_type IN
    ('ScheduleDailyRotation', 'ScheduleWeeklyRotation', 'ScheduleBiweeklyRotation', 'ScheduleMonthlyRotation', 'ScheduleCustomRotation'))`);
  await knex.raw(
    `ALTER TABLE schedule_rotations ADD CONSTRAINT schedule_rotations_active_time_type_check CHECK (active_time_type IN ('all_day', 'same_time', 'custom'))`,
  );
  await knex.raw(
    'ALTER TABLE schedule_rotations ADD CONSTRAINT schedule_rotations_time_order_check CHECK (start_time IS NULL OR end_time IS NULL OR start_time < end_time)',
  );

  await knex.schema.createTable('schedule_rotation_users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('schedule_rotation_id').notNullable().references('id').inTable('schedule_rotations').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.integer('position').notNullable();
    timestamps(t);
    t.unique(['schedule_rotation_id', 'user_id'], { indexName: 'schedule_rotation_users_rotation_user_unique' });
    // The users read model removes a deleted user from every rotation by (team_id, user_id).
    t.index(['team_id', 'user_id']);
  });

  await knex.schema.createTable('schedule_rotation_active_days', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('schedule_rotation_id').notNullable().references('id').inTable('schedule_rotations').onDelete('CASCADE');
    t.text('day_name').notNullable();
    t.jsonb('active_time_attributes').notNullable().defaultTo('[]');
    timestamps(t);
    t.unique(['schedule_rotation_id', 'day_name'], { indexName: 'schedule_rotation_active_days_rotation_day_unique' });
  });
  await knex.raw(
    `ALTER TABLE schedule_rotation_active_days ADD CONSTRAINT schedule_rotation_active_days_day_check CHECK (day_name IN ('S', 'M', 'T', 'W', 'R', 'F', 'U'))`,
  );

  await knex.schema.createTable('override_shifts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.uuid('schedule_id').notNullable().references('id').inTable('schedules').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    timestamps(t);
    // Shift computation reads a schedule's overrides in a range.
    t.index(['schedule_id', 'starts_at']);
    t.index(['team_id', 'user_id']);
  });
  await knex.raw('ALTER TABLE override_shifts ADD CONSTRAINT override_shifts_order_check CHECK (starts_at < ends_at)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['override_shifts', 'schedule_rotation_active_days', 'schedule_rotation_users', 'schedule_rotations', 'schedules']) {
    await knex.schema.dropTable(table);
  }
}
