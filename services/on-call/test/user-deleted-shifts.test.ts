import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import { createUserSyncStore } from '../src/data/users.repository.js';
import { createUserSync } from '../src/domain/users/user-sync.js';
import { PERSONAL_DECLARATIONS, registry } from '../src/domain/registry.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedUsers } from './support/users.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startOnCall();
  await seedUsers(
    h.db.knex as Knex,
    [21, 22, 23].map((user_id) => ({ team_id: 1, user_id, name: `User ${user_id}` })),
  );
});
afterAll(async () => h?.close());

const deleted = (id: number) => ({
  id: randomUUID(),
  type: 'user.deleted',
  occurred_at: new Date().toISOString(),
  team_id: 1,
  data: {
    id: String(id),
    type: 'users',
    attributes: { email: `u${id}@one.test`, name: `User ${id}`, role: 'user', on_call_role: 'user', team_id: 1, is_service_account: false },
    meta: { version: 99 },
  },
});

type ShiftDoc = { attributes: { user_id: number; starts_at: string; ends_at: string } };

describe('a user deleted in auth', () => {
  it('leaves the rotation: its turns before the deletion stay its (shown deleted), later turns go to the others in turn', async () => {
    const schedule = await h.create('schedules', { name: 'Rota', owner_user_id: 21 });
    const rotation = await h.call('POST', `/v1/schedules/${schedule.body.data.id}/schedule_rotations`, {
      body: {
        data: {
          type: 'schedule_rotations',
          attributes: {
            name: 'Daily',
            schedule_rotationable_type: 'ScheduleDailyRotation',
            schedule_rotationable_attributes: { handoff_time: '09:00' },
            start_time: '2026-01-01T09:00:00Z',
          },
        },
      },
    });
    for (const user_id of [21, 22, 23]) {
      expect(
        (
          await h.call('POST', `/v1/schedule_rotations/${rotation.body.data.id}/schedule_rotation_users`, {
            body: { data: { type: 'schedule_rotation_users', attributes: { user_id } } },
          })
        ).status,
      ).toBe(201);
    }
    const range = `/v1/schedules/${schedule.body.data.id}/shifts?from=2026-01-01T09:00:00Z&to=2026-01-10T09:00:00Z&include=user`;
    const before = await h.call('GET', range);
    expect(before.body.data.map((s: ShiftDoc) => s.attributes.user_id)).toEqual([21, 22, 23, 21, 22, 23, 21, 22, 23]);

    const day = 86_400_000;
    const nowRange = (from: number, to: number) =>
      `/v1/schedules/${schedule.body.data.id}/shifts?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    const sync = createUserSync({
      store: createUserSyncStore(h.db.knex as Knex),
      logger: createLogger({ service: 'test', level: 'silent' }),
      memberships: registry.get('schedule_rotation_users'),
      personal: PERSONAL_DECLARATIONS.map(registry.get),
    });
    expect(await sync.handle(deleted(22) as never)).toBe('applied');

    const members = await h.call('GET', `/v1/schedule_rotations/${rotation.body.data.id}/schedule_rotation_users`);
    expect(members.body.data.map((m: { attributes: { user_id: number } }) => m.attributes.user_id)).toEqual([21, 23]);
    const after = await h.call('GET', range);
    // The same shifts, the same ids: 22's turns stay 22's.
    expect(after.body.data).toEqual(before.body.data);
    expect(after.body.included).toContainEqual(
      expect.objectContaining({ id: '22', type: 'users', attributes: expect.objectContaining({ deleted: true }) }),
    );
    expect(after.body.included).toContainEqual(
      expect.objectContaining({ id: '21', attributes: expect.objectContaining({ deleted: false }) }),
    );

    // After the deletion: no shift of 22 starts, and 21 and 23 alternate; before it, 22 still had turns.
    const deletedAt = Date.now();
    const later = (await h.call('GET', nowRange(deletedAt, deletedAt + 10 * day))).body.data as ShiftDoc[];
    const starting = later.filter((s) => Date.parse(s.attributes.starts_at) >= deletedAt);
    expect(starting.length).toBeGreaterThanOrEqual(9);
    expect(starting.map((s) => s.attributes.user_id)).not.toContain(22);
    for (let i = 1; i < starting.length; i += 1) expect(starting[i]!.attributes.user_id).not.toBe(starting[i - 1]!.attributes.user_id);
    // A shift of 22 still running at the deletion ends there.
    for (const s of later.filter((x) => x.attributes.user_id === 22))
      expect(Date.parse(s.attributes.ends_at)).toBeLessThanOrEqual(deletedAt);
    const earlier = (await h.call('GET', nowRange(deletedAt - 10 * day, deletedAt - 3600_000))).body.data as ShiftDoc[];
    expect(earlier.map((s) => s.attributes.user_id)).toContain(22);
  });
});
