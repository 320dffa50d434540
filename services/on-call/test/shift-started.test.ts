import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import { createShiftInputsRepository } from '../src/data/shift-inputs.repository.js';
import { createShiftStartsRepository } from '../src/data/shift-starts.repository.js';
import { createUsersRepository, createUserSyncStore } from '../src/data/users.repository.js';
import { createShiftStartedJob, type ShiftStartedJobOptions } from '../src/jobs/shift-started.job.js';

const HOUR = 3_600_000;
let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase();
  knex = db.knex as Knex;
  await migrate(knex, migrations);
});
afterAll(async () => db?.drop());
beforeEach(async () => {
  for (const table of ['outbox', 'shift_starts', 'shift_scheduler_state', 'schedules']) await knex(table).delete();
});

/** A replica's scheduler: its own repositories over the shared database. */
function replica(options: Partial<ShiftStartedJobOptions> = {}) {
  return createShiftStartedJob({
    shifts: createShiftInputsRepository(knex, createUsersRepository()),
    store: createShiftStartsRepository(knex),
    logger: createLogger({ service: 'test', level: 'silent' }),
    intervalMs: 200,
    catchUpMs: 24 * HOUR,
    lateAfterMs: 60_000,
    overlapMs: 60_000,
    ...options,
  });
}

/** An hourly rotation of two users whose first shift begins at `start`. */
async function hourlyRotation(start: Date, teamId = 1): Promise<string> {
  const [schedule] = await knex('schedules')
    .insert({ team_id: teamId, name: `S${Math.random()}`, owner_user_id: 11 })
    .returning('id');
  const [rotation] = await knex('schedule_rotations')
    .insert({
      team_id: teamId,
      schedule_id: schedule.id,
      name: 'R',
      position: 1,
      schedule_rotationable_type: 'ScheduleCustomRotation',
      schedule_rotationable_attributes: JSON.stringify({ shift_length: 1, shift_length_unit: 'hours', handoff_time: '00:00' }),
      time_zone: 'Europe/Berlin',
      start_time: start,
    })
    .returning('id');
  await knex('schedule_rotation_users').insert(
    [11, 12].map((user_id, position) => ({ team_id: teamId, schedule_rotation_id: rotation.id, user_id, position })),
  );
  return schedule.id;
}

/**
 * The clock the ticks are given: 20 minutes past this hour, so that the hourly rotations'
 * handoffs (on the hour) never fall within the minute a tick looks back, whenever the
 * suite runs.
 */
const twentyPastTheHour = () => Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000;

const startedEvents = async () =>
  (await knex('outbox').where({ type: 'shift.started' }).orderBy('seq').select('payload')).map(
    (r: { payload: string | Record<string, unknown> }) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload),
  );

describe('shift.started scheduler', () => {
  it('two replicas, a shift beginning in two seconds: exactly one event, on time', async () => {
    const a = replica();
    const b = replica();
    a.start();
    b.start();
    try {
      const start = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
      const scheduleId = await hourlyRotation(start);
      await new Promise((r) => setTimeout(r, 500));
      expect(await startedEvents()).toEqual([]);
      await new Promise((r) => setTimeout(r, start.getTime() - Date.now() + 1500));
      const events = await startedEvents();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'shift.started',
        team_id: 1,
        occurred_at: start.toISOString(),
        data: {
          type: 'shifts',
          attributes: { schedule_id: scheduleId, starts_at: start.toISOString(), user_id: 11, is_override: false },
          meta: { late: false },
        },
      });
      expect(Number((await knex('shift_starts').count<{ count: string }[]>('* as count'))[0]!.count)).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('replicas racing on the same ticks announce each start once', async () => {
    const now = twentyPastTheHour();
    for (let i = 0; i < 20; i += 1) await hourlyRotation(new Date(now - 1000 - i * 10));
    const clock = () => now;
    const replicas = [replica({ now: clock }), replica({ now: clock }), replica({ now: clock })];
    await knex('shift_scheduler_state').insert({ name: 'shift.started', checked_until: new Date(now - 30_000) });
    const counts = await Promise.all(replicas.map((r) => r.tick()));
    expect(counts.reduce((x, y) => x + y, 0)).toBe(20);
    expect(await startedEvents()).toHaveLength(20);
    expect(await Promise.all(replicas.map((r) => r.tick()))).toEqual([0, 0, 0]);
  });

  it('after downtime catches up on starts within the bound, each once and marked late, and never earlier ones', async () => {
    const now = twentyPastTheHour();
    const hour = Math.floor(now / HOUR) * HOUR;
    // Hourly shifts began on each of the last six whole hours; the scheduler last looked 3 hours ago.
    await hourlyRotation(new Date(hour - 5 * HOUR));
    await knex('shift_scheduler_state').insert({ name: 'shift.started', checked_until: new Date(now - 3 * HOUR) });
    const restarted = replica({ now: () => now, catchUpMs: 2 * HOUR });
    expect(await restarted.tick()).toBe(2);
    const events = await startedEvents();
    expect(events.map((e) => [e.data.attributes.starts_at, e.data.meta.late])).toEqual([
      [new Date(hour - HOUR).toISOString(), true],
      [new Date(hour).toISOString(), now - hour > 60_000],
    ]);
    expect(await restarted.tick()).toBe(0);
    const checked = async () => (await knex('shift_scheduler_state').first('checked_until')).checked_until.getTime();
    expect(await checked()).toBe(now);
    // Nothing announced and the watermark recent: no write.
    expect(await replica({ now: () => now + 1000 }).tick()).toBe(0);
    expect(await checked()).toBe(now);
    // More than a minute behind: written even though nothing was announced.
    expect(await replica({ now: () => now + 61_000 }).tick()).toBe(0);
    expect(await checked()).toBe(now + 61_000);
  });

  it('a schedule whose rotation cannot be computed holds up no other schedule', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({ name: 'shift.started', checked_until: new Date(now - 30_000) });
    const broken = await hourlyRotation(new Date(now - 1000));
    await knex('schedule_rotations').where({ schedule_id: broken }).update({ time_zone: 'Mars/Olympus_Mons' });
    await hourlyRotation(new Date(now - 1000));
    expect(await replica({ now: () => now }).tick()).toBe(1);
  });

  it('pages through more schedules than one batch, and reads no rotation that ended before its look', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({ name: 'shift.started', checked_until: new Date(now - 30_000) });
    for (let i = 0; i < 120; i += 1) await hourlyRotation(new Date(now - 1000 - i));
    const ended = await hourlyRotation(new Date(now - 1000));
    await knex('schedule_rotations')
      .where({ schedule_id: ended })
      .update({ start_time: new Date(now - 3 * HOUR - 1000), end_time: new Date(now - 2 * HOUR) });
    const shifts = createShiftInputsRepository(knex, createUsersRepository());
    const live = await shifts.rotations({ live: { from: now - 90_000, to: now + 1 } });
    expect(live).toHaveLength(120);
    expect(live.map((r) => r.schedule_id)).not.toContain(ended);
    expect(await replica({ now: () => now }).tick()).toBe(120);
  });

  it('announces late, within about a minute, a shift that appeared with its start already past (an override created for 5 minutes ago)', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({
      name: 'shift.started',
      checked_until: new Date(now - 30_000),
      started_at: new Date(now - 2 * HOUR),
      last_swept_at: new Date(now - 30_000),
    });
    const scheduleId = await hourlyRotation(new Date(now - 3 * HOUR));
    const [override] = await knex('override_shifts')
      .insert({ team_id: 1, schedule_id: scheduleId, user_id: 14, starts_at: new Date(now - 5 * 60_000), ends_at: new Date(now + HOUR) })
      .returning('id');
    expect(await replica({ now: () => now }).tick()).toBe(0);
    expect(await replica({ now: () => now + 61_000 }).tick()).toBe(1);
    const events = await startedEvents();
    expect(events.map((e) => [e.data.attributes.user_id, e.data.relationships.shift_override.data?.id, e.data.meta.late])).toEqual([
      [14, override.id, true],
    ]);
    expect(await replica({ now: () => now + 130_000 }).tick()).toBe(0);
  });

  it('sweeps once a minute even when every tick announces something (the watermark never a minute old)', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({
      name: 'shift.started',
      checked_until: new Date(now - 30_000),
      started_at: new Date(now - 2 * HOUR),
      last_swept_at: new Date(now - 90_000),
    });
    await hourlyRotation(new Date(now - 1000));
    const scheduleId = await hourlyRotation(new Date(now - 3 * HOUR));
    const [override] = await knex('override_shifts')
      .insert({ team_id: 1, schedule_id: scheduleId, user_id: 14, starts_at: new Date(now - 5 * 60_000), ends_at: new Date(now + HOUR) })
      .returning('id');
    expect(await replica({ now: () => now }).tick()).toBe(2);
    const events = await startedEvents();
    expect(events.filter((e) => e.data.meta.late).map((e) => e.data.relationships.shift_override.data?.id)).toEqual([override.id]);
    const state = await knex('shift_scheduler_state').first('last_swept_at');
    expect((state.last_swept_at as Date).getTime()).toBe(now);
  });

  it('the sweep does not announce again a running stint whose start moved earlier (an override before it deleted)', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({
      name: 'shift.started',
      checked_until: new Date(now - 6 * 60_000),
      started_at: new Date(now - 2 * HOUR),
      last_swept_at: new Date(now),
    });
    const scheduleId = await hourlyRotation(new Date(now - 3 * HOUR));
    const [override] = await knex('override_shifts')
      .insert({
        team_id: 1,
        schedule_id: scheduleId,
        user_id: 14,
        starts_at: new Date(now - 20 * 60_000),
        ends_at: new Date(now - 5 * 60_000),
      })
      .returning('id');
    // The rotation's member takes over when the override ends, 5 minutes ago.
    expect(await replica({ now: () => now }).tick()).toBe(1);
    const [first] = await startedEvents();
    expect(first.data.attributes.starts_at).toBe(new Date(now - 5 * 60_000).toISOString());
    await knex('override_shifts').where({ id: override.id }).delete();
    // Now the same member's shift runs from the hour; the sweep sees a new key, but the stint was announced.
    expect(await replica({ now: () => now + 61_000 }).tick()).toBe(0);
    expect(await startedEvents()).toHaveLength(1);
  });

  it('announces no start for a member whose user was deleted, after the deletion: the others take the turns', async () => {
    const now = twentyPastTheHour();
    await knex('shift_scheduler_state').insert({
      name: 'shift.started',
      checked_until: new Date(now - 30_000),
      started_at: new Date(now - 2 * HOUR),
      last_swept_at: new Date(now + 3 * HOUR),
    });
    await hourlyRotation(new Date(now - 3 * HOUR - 20 * 60_000));
    await knex.transaction((tx) => createUserSyncStore(knex).removeMemberships(tx, 1, 12));
    await knex('schedule_rotation_vacancies').update({ left_at: new Date(now) });
    expect(await replica({ now: () => now + 41 * 60_000 }).tick()).toBe(1);
    expect(await replica({ now: () => now + 101 * 60_000 }).tick()).toBe(1);
    expect((await startedEvents()).map((e) => e.data.attributes.user_id)).toEqual([11, 11]);
  });

  it('on its very first run announces nothing from before it ran', async () => {
    const now = twentyPastTheHour();
    await hourlyRotation(new Date(now - 0.5 * HOUR));
    expect(await replica({ now: () => now }).tick()).toBe(0);
    // Nor later: the shift running since before the first run is never announced late.
    expect(await replica({ now: () => now + 61_000 }).tick()).toBe(0);
    expect(await replica({ now: () => now + HOUR }).tick()).toBe(1);
  });
});
