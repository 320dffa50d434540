import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';

// Issue 22: free-text owner groups written before teams existed become team ids in place.
const MIGRATION = '20261125-0101-owner-groups-as-team-ids';
const TEAM_UUID = '7D1C3B2A-0F4E-4A5B-8C6D-9E8F7A6B5C4D';
let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase();
  knex = db.knex as Knex;
  await migrate(knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < MIGRATION)));
});
afterAll(async () => db?.drop());

const json = (v: unknown) => JSON.stringify(v);

describe('owner groups as team ids (migration 0101)', () => {
  it('maps each legacy name per tenant with legacyGroupId, keeps UUIDs (lower-cased), and leaves the rest of the row alone', async () => {
    const stamp = new Date('2026-01-02T03:04:05Z');
    for (const table of ['services', 'functionalities']) {
      await knex(table).insert([
        { team_id: 1, name: 'Ledger', slug: 'ledger', owner_group_ids: json(['ops', 'db', 'ops']), updated_at: stamp },
        { team_id: 2, name: 'Ledger', slug: 'ledger', owner_group_ids: json(['ops']), updated_at: stamp },
        { team_id: 1, name: 'Search', slug: 'search', owner_group_ids: json([TEAM_UUID]), updated_at: stamp },
        { team_id: 1, name: 'Nobody', slug: 'nobody', updated_at: stamp },
      ]);
    }
    await knex('secrets').insert([
      { team_id: 1, name: 'token', secret_ciphertext: 'x', owner_group_ids: json(['ops']) },
      { team_id: 3, name: 'token', secret_ciphertext: 'x', owner_group_ids: json(['ops', TEAM_UUID]) },
    ]);
    await knex('retrospective_processes').insert([
      { team_id: 1, name: 'By team', retrospective_process_matching_criteria: json({ group_ids: ['ops', 'Ops'] }) },
      { team_id: 1, name: 'By severity', retrospective_process_matching_criteria: json({ severity_ids: ['ops'] }) },
      { team_id: 1, name: 'Default', is_default: true },
    ]);

    expect(await migrate(knex, migrations)).toContain(MIGRATION);

    const ops = (team: number) => legacyGroupId(team, 'ops');
    for (const table of ['services', 'functionalities']) {
      const rows = await knex(table).orderBy(['team_id', 'name']).select('team_id', 'name', 'owner_group_ids', 'updated_at');
      expect(rows.map((r) => [r.team_id, r.name, r.owner_group_ids])).toEqual([
        [1, 'Ledger', [ops(1), legacyGroupId(1, 'db'), ops(1)]],
        [1, 'Nobody', []],
        [1, 'Search', [TEAM_UUID.toLowerCase()]],
        [2, 'Ledger', [ops(2)]],
      ]);
      expect(rows.every((r) => r.updated_at.getTime() === stamp.getTime())).toBe(true);
    }
    // The same name in two tenants is two teams.
    expect(ops(1)).not.toBe(ops(2));
    expect(await knex('secrets').orderBy('team_id').pluck('owner_group_ids')).toEqual([[ops(1)], [ops(3), TEAM_UUID.toLowerCase()]]);
    const criteria = await knex('retrospective_processes').orderBy('name').select('name', 'retrospective_process_matching_criteria');
    expect(criteria.map((r) => [r.name, r.retrospective_process_matching_criteria])).toEqual([
      ['By severity', { severity_ids: ['ops'] }],
      ['By team', { group_ids: [ops(1), legacyGroupId(1, 'Ops')] }],
      ['Default', null],
    ]);
    // Run again (another replica at start-up): nothing is pending and nothing changes.
    expect(await migrate(knex, migrations)).toEqual([]);
    expect(await knex('secrets').where({ team_id: 1 }).pluck('owner_group_ids')).toEqual([[ops(1)]]);
  });

  it('maps a name the same way auth maps it on API keys: a key of group "ops" meets its records', () => {
    // auth's migration and this one share @firewatch/auth's function; pinned so a change to it fails here.
    expect(legacyGroupId(1, 'ops')).toBe('f7cc494c-c025-53ea-935f-1fa2ab9fc189');
    expect(legacyGroupId(1, TEAM_UUID)).toBe(TEAM_UUID.toLowerCase());
  });
});

describe('owner groups as team ids (migration 0101), one UUID in two spellings', () => {
  let fresh: TestDatabase;
  beforeAll(async () => {
    fresh = await createTestDatabase();
    await migrate(fresh.knex as Knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < MIGRATION)));
  });
  afterAll(async () => fresh?.drop());

  it('leaves a record whose lower-cased owners would share an owner set with another of its name, and still migrates the rest', async () => {
    const k = fresh.knex as Knex;
    const lower = TEAM_UUID.toLowerCase();
    // Two owner sets before (strings compared as written), one after lower-casing: the
    // per-owner-set unique keys would refuse the second, and the service would never start.
    for (const table of ['services', 'functionalities']) {
      await k(table).insert([
        { team_id: 1, name: 'Ledger', slug: 'ledger', external_id: 'ledger', owner_group_ids: json([lower]) },
        { team_id: 1, name: 'Ledger', slug: 'ledger-2', external_id: 'ledger', owner_group_ids: json([TEAM_UUID]) },
        // Though it comes later in id order, the one spelt as PostgreSQL spells UUIDs keeps it.
        {
          id: '00000000-0000-4000-8000-000000000001',
          team_id: 1,
          name: 'Search',
          slug: 'search-2',
          owner_group_ids: json([TEAM_UUID, 'ops']),
        },
        { id: 'ffffffff-0000-4000-8000-000000000001', team_id: 1, name: 'Search', slug: 'search', owner_group_ids: json(['ops', lower]) },
      ]);
    }
    await k('secrets').insert([
      { team_id: 1, name: 'token', secret_ciphertext: 'x', owner_group_ids: json([TEAM_UUID]) },
      { team_id: 1, name: 'token', secret_ciphertext: 'x', owner_group_ids: json([lower]) },
    ]);

    expect(await migrate(k, migrations)).toContain(MIGRATION);

    for (const table of ['services', 'functionalities']) {
      const rows = await k(table).orderBy('slug').select('slug', 'owner_group_ids');
      // The one left keeps its spelling, which no key holds any more (auth lower-cased theirs).
      expect(rows.map((r) => [r.slug, r.owner_group_ids])).toEqual([
        ['ledger', [lower]],
        ['ledger-2', [TEAM_UUID]],
        ['search', [legacyGroupId(1, 'ops'), lower]],
        // Its names still become team ids.
        ['search-2', [TEAM_UUID, legacyGroupId(1, 'ops')]],
      ]);
    }
    expect((await k('secrets').pluck('owner_group_ids')).sort()).toEqual([[lower], [TEAM_UUID]].sort());
  });

  it('changes nothing when run again', async () => {
    const k = fresh.knex as Knex;
    const before = await k('services').orderBy('id').select('id', 'owner_group_ids');
    await migrations[MIGRATION].up(k);
    expect(await k('services').orderBy('id').select('id', 'owner_group_ids')).toEqual(before);
  });
});
