import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
let scheduleId: string;
let rotationId: string;

beforeAll(async () => {
  h = await startOnCall();
  await seedUsers(h.db.knex as Knex, [{ team_id: 1, user_id: 11 }]);
  scheduleId = (await h.create('schedules', { name: 'Fuzzed', owner_user_id: 11 })).body.data.id;
  rotationId = (
    await h.call('POST', `/v1/schedules/${scheduleId}/schedule_rotations`, {
      body: {
        data: {
          type: 'schedule_rotations',
          attributes: {
            name: 'R',
            schedule_rotationable_type: 'ScheduleDailyRotation',
            schedule_rotationable_attributes: { handoff_time: '09:00' },
          },
        },
      },
    })
  ).body.data.id;
});

afterAll(async () => h?.close());

/** Values near what the attributes take, and far from it. */
const value = fc.oneof(
  fc.constantFrom(
    '09:00',
    '24:00',
    '00:00',
    'Europe/Berlin',
    '+01:00',
    'M',
    'first_day_of_month',
    'hours',
    'ScheduleCustomRotation',
    '2026-10-25T02:30:00+02:00',
    '0000-01-01T00:00:00Z',
    '',
  ),
  fc.integer({ min: -3, max: 2 ** 33 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.array(
    fc.oneof(
      fc.constantFrom('M', 'X'),
      fc.record({ start_time: fc.constantFrom('09:00', '25:00', 9), end_time: fc.constantFrom('08:00', '00:00', null) }),
    ),
    { maxLength: 4 },
  ),
  fc.dictionary(
    fc.constantFrom('handoff_time', 'handoff_day', 'shift_length', 'shift_length_unit', 'x'),
    fc.oneof(fc.constantFrom('09:00', 'M', 'weeks'), fc.integer({ min: -1, max: 400 }), fc.constant(null)),
  ),
);

const targets: [string, string, string[]][] = [
  ['schedules', '/v1/schedules', ['name', 'owner_user_id', 'description', 'all_time_coverage', 'owner_group_ids']],
  [
    'schedule_rotations',
    '',
    [
      'name',
      'position',
      'schedule_rotationable_type',
      'schedule_rotationable_attributes',
      'time_zone',
      'start_time',
      'end_time',
      'active_all_week',
      'active_days',
      'active_time_type',
      'active_time_attributes',
    ],
  ],
  ['schedule_rotation_users', '', ['user_id', 'position']],
  ['schedule_rotation_active_days', '', ['day_name', 'active_time_attributes']],
  ['shifts', '', ['starts_at', 'ends_at', 'user_id']],
];

const pathOf = (type: string, given: string) =>
  given ||
  (
    {
      schedule_rotations: `/v1/schedules/${scheduleId}/schedule_rotations`,
      schedule_rotation_users: `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`,
      schedule_rotation_active_days: `/v1/schedule_rotations/${rotationId}/schedule_rotation_active_days`,
      shifts: `/v1/schedules/${scheduleId}/override_shifts`,
    } as Record<string, string>
  )[type];

describe('schedule writes never answer 5xx', () => {
  it.each(targets)(
    '%s: arbitrary attributes are a 201 or a 4xx',
    async (type, given, names) => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...names, 'unknown'), value, { maxKeys: names.length }), async (attributes) => {
          const res = await h.call('POST', pathOf(type, given), { body: { data: { type, attributes } } });
          expect([JSON.stringify(attributes), res.status < 500]).toEqual([JSON.stringify(attributes), true]);
          if (res.status >= 400) expect(res.body.errors.length).toBeGreaterThan(0);
        }),
        { numRuns: 60 },
      );
    },
    60_000,
  );

  it.each([
    ['schedules', 0],
    ['schedule_rotations', 1],
  ] as const)(
    '%s: an arbitrary PUT is a 200 or a 4xx',
    async (type, i) => {
      const path = type === 'schedules' ? `/v1/schedules/${scheduleId}` : `/v1/schedule_rotations/${rotationId}`;
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...targets[i][2], 'unknown'), value, { maxKeys: 4 }), async (attributes) => {
          const res = await h.call('PUT', path, { body: { data: { type, attributes } } });
          expect([JSON.stringify(attributes), res.status < 500]).toEqual([JSON.stringify(attributes), true]);
        }),
        { numRuns: 60 },
      );
      expect((await h.call('GET', path)).status).toBe(200);
    },
    60_000,
  );

  it('an unknown or malformed parent id is a 4xx', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '%E0%A4%A']) {
      for (const path of [
        `/v1/schedules/${id}/schedule_rotations`,
        `/v1/schedule_rotations/${id}/schedule_rotation_users`,
        `/v1/schedules/${id}/override_shifts`,
      ]) {
        expect(Math.floor((await h.call('GET', path)).status / 100)).toBe(4);
      }
    }
  });
});
