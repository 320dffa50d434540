import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import type { OnCallHarness } from './support/on-call-harness.js';
import { startWithUsers } from './support/schedules.fixture.js';

// Issue 22: free-text owner groups written before teams existed become team ids in place.
const MIGRATION = '20261125-0400-owner-groups-as-team-ids';
const TEAM_UUID = '7D1C3B2A-0F4E-4A5B-8C6D-9E8F7A6B5C4D';
const json = (v: unknown) => JSON.stringify(v);
const source = (team_id: number, name: string, owners?: unknown[]) => ({
  team_id,
  name,
  source_type: 'generic_webhook',
  secret_hash: randomBytes(32),
  secret_hint: 'abcd',
  ...(owners ? { owner_group_ids: json(owners) } : {}),
});

describe('owner groups as team ids (migration 0400)', () => {
  let db: TestDatabase;
  let knex: Knex;
  beforeAll(async () => {
    db = await createTestDatabase();
    knex = db.knex as Knex;
    await migrate(knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < MIGRATION)));
  });
  afterAll(async () => db?.drop());

  it('maps each legacy name per tenant with legacyGroupId, keeps UUIDs lower-cased and once, and leaves the rest of the row alone', async () => {
    const stamp = new Date('2026-01-02T03:04:05Z');
    const schedule = (team_id: number, name: string, owners?: unknown[]) => ({
      team_id,
      name,
      owner_user_id: 11,
      updated_at: stamp,
      ...(owners ? { owner_group_ids: json(owners) } : {}),
    });
    await knex('schedules').insert([
      schedule(1, 'Ops', ['ops', 'db']),
      schedule(2, 'Ops', ['ops']),
      schedule(1, 'Team', [TEAM_UUID, 'ops', TEAM_UUID.toLowerCase()]),
      schedule(1, 'Nobody'),
    ]);
    await knex('alert_sources').insert([
      { ...source(1, 'Ops', ['ops']), updated_at: stamp },
      { ...source(3, 'Team', [TEAM_UUID]), updated_at: stamp },
    ]);

    expect(await migrate(knex, migrations)).toContain(MIGRATION);

    const ops = (team: number) => legacyGroupId(team, 'ops');
    const rows = await knex('schedules').orderBy(['team_id', 'name']).select('team_id', 'name', 'owner_group_ids', 'updated_at');
    expect(rows.map((r) => [r.team_id, r.name, r.owner_group_ids])).toEqual([
      [1, 'Nobody', []],
      [1, 'Ops', [ops(1), legacyGroupId(1, 'db')]],
      [1, 'Team', [TEAM_UUID.toLowerCase(), ops(1)]],
      [2, 'Ops', [ops(2)]],
    ]);
    expect(rows.every((r) => r.updated_at.getTime() === stamp.getTime())).toBe(true);
    // The same name in two tenants is two teams.
    expect(ops(1)).not.toBe(ops(2));
    const sources = await knex('alert_sources').orderBy('team_id').select('owner_group_ids', 'updated_at');
    expect(sources.map((r) => r.owner_group_ids)).toEqual([[ops(1)], [TEAM_UUID.toLowerCase()]]);
    expect(sources.every((r) => r.updated_at.getTime() === stamp.getTime())).toBe(true);

    // Run again (another replica at start-up): nothing is pending, and the migration itself changes nothing.
    const before = await knex('schedules').orderBy('id').select('id', 'owner_group_ids');
    expect(await migrate(knex, migrations)).toEqual([]);
    await migrations[MIGRATION].up(knex);
    expect(await knex('schedules').orderBy('id').select('id', 'owner_group_ids')).toEqual(before);
  });

  it('maps a name the same way auth maps it on API keys', () => {
    // auth's migration and this one share @firewatch/auth's function; pinned so a change to it fails here.
    expect(legacyGroupId(1, 'ops')).toBe('f7cc494c-c025-53ea-935f-1fa2ab9fc189');
    expect(legacyGroupId(1, TEAM_UUID)).toBe(TEAM_UUID.toLowerCase());
  });
});

describe('a group key after migration 0400', () => {
  let h: OnCallHarness;
  beforeAll(async () => {
    h = await startWithUsers();
  });
  afterAll(async () => h?.close());

  it('sees the schedules, their shifts and the alert sources of its legacy group again', async () => {
    const knex = h.db.knex as Knex;
    // A key of group "ops" as auth's migration left it: its group as a team id.
    const group = { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [legacyGroupId(1, 'ops')] };
    const [ours, theirs] = await knex('schedules')
      .insert([
        { team_id: 1, name: 'Ops', owner_user_id: 11, owner_group_ids: json(['ops']) },
        { team_id: 1, name: 'Db', owner_user_id: 11, owner_group_ids: json(['db']) },
      ])
      .returning('id')
      .then((rows) => rows.map((r) => r.id as string));
    const [sourceId] = await knex('alert_sources')
      .insert(source(1, 'Ops', ['ops']))
      .returning('id')
      .then((rows) => rows.map((r) => r.id as string));
    const seen = async () => ({
      schedules: (await h.call('GET', '/v1/schedules', { principal: group })).body.data.map((s: { id: string }) => s.id),
      sources: (await h.call('GET', '/v1/alert_sources', { principal: group })).body.data.map((s: { id: string }) => s.id),
    });
    // Before: the key's team id meets no free-text name.
    expect(await seen()).toEqual({ schedules: [], sources: [] });

    await migrations[MIGRATION].up(knex);

    expect(await seen()).toEqual({ schedules: [ours], sources: [sourceId] });
    expect((await h.call('GET', `/v1/schedules/${theirs}`, { principal: group })).status).toBe(404);
    const rotation = await h.call('POST', `/v1/schedules/${ours}/schedule_rotations`, {
      body: {
        data: {
          type: 'schedule_rotations',
          attributes: {
            name: 'Primary',
            schedule_rotationable_type: 'ScheduleDailyRotation',
            schedule_rotationable_attributes: { handoff_time: '00:00' },
            start_time: '2026-01-01T00:00:00Z',
            schedule_rotation_members: [{ member_type: 'User', member_id: 11 }],
          },
        },
      },
      principal: group,
    });
    expect(rotation.status).toBe(201);
    const shifts = await h.call('GET', '/v1/shifts?from=2026-10-20T10:00:00Z&to=2026-10-20T11:00:00Z', { principal: group });
    expect(shifts.body.data.map((s: { attributes: { schedule_id: string } }) => s.attributes.schedule_id)).toEqual([ours]);
    // The legacy id it holds passes on PUT, though auth made no team of it.
    const kept = await h.call('PUT', `/v1/schedules/${ours}`, {
      body: { data: { type: 'schedules', attributes: { name: 'Ops on call', owner_group_ids: [legacyGroupId(1, 'ops')] } } },
      principal: group,
    });
    expect(kept.status).toBe(200);
  });
});
