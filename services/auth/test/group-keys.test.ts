import { legacyGroupId } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import { createGroup, newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("API keys' group_ids name groups", () => {
  it('a deleted group leaves the keys naming it, each announced; a key left with none reaches no group, never the team', async () => {
    const [ops, dba] = [await createGroup(h, 'Key ops'), await createGroup(h, 'Key dba')];
    const both = await h.request('POST', '/v1/api_keys', { body: newKey({ name: 'both', kind: 'group', group_ids: [ops, dba] }) });
    const only = await h.request('POST', '/v1/api_keys', { body: newKey({ name: 'only', kind: 'group', group_ids: [ops] }) });
    expect([both.status, only.status]).toEqual([201, 201]);
    const from = Number((await h.db.knex('outbox').max('seq as max').first())?.max ?? 0);

    expect((await h.request('DELETE', `/v1/teams/${ops}`)).status).toBe(200);

    const events = await h.db.knex('outbox').where('seq', '>', from).orderBy('seq');
    expect(events.map((e) => [e.type, e.payload.data.id])).toEqual([
      ['api_key.updated', both.body.data.id],
      ['api_key.updated', only.body.data.id],
      ['group.deleted', ops],
    ]);
    expect((await h.request('GET', `/v1/api_keys/${both.body.data.id}`)).body.data.attributes.group_ids).toEqual([dba]);
    const emptied = await h.request('GET', `/v1/api_keys/${only.body.data.id}`);
    expect(emptied.body.data.attributes).toMatchObject({ kind: 'group', group_ids: [] });
    const principal = (await h.resolve(only.body.data.attributes.token)).body.principal;
    expect(principal).toMatchObject({ group_ids: [], credential: { kind: 'group' } });
  });
});

describe('a group deleted while a key naming it is created', () => {
  it('never stays on the key', async () => {
    for (let i = 0; i < 8; i++) {
      const group = await createGroup(h, `Raced ${i}`);
      const [key, deleted] = await Promise.all([
        h.request('POST', '/v1/api_keys', { body: newKey({ name: `raced-${i}`, kind: 'group', group_ids: [group] }) }),
        h.request('DELETE', `/v1/teams/${group}`),
      ]);
      expect(deleted.status).toBe(200);
      if (key.status === 201) {
        expect((await h.request('GET', `/v1/api_keys/${key.body.data.id}`)).body.data.attributes.group_ids).toEqual([]);
      } else {
        expect([key.status, key.body.errors[0].source.pointer]).toEqual([422, '/data/attributes/group_ids/0']);
      }
    }
  });
});

describe("a group's updated_at", () => {
  it('rises with every change, even two in one transaction, where now() stands still', async () => {
    const id = await createGroup(h, 'Versioned');
    const rising = await h.db.knex.transaction(async (tx) => {
      const stamps: string[] = [];
      for (const description of ['one', 'two']) {
        // As the kit writes it: updated_at = now(), the transaction's start.
        const { rows } = await tx.raw(
          'UPDATE groups SET description = ?, updated_at = now() WHERE id = ? RETURNING updated_at::text AS at',
          [description, id],
        );
        stamps.push(rows[0].at);
      }
      const { rows } = await tx.raw('SELECT ?::timestamptz < ?::timestamptz AS rising, now() < ?::timestamptz AS after_start', [
        stamps[0],
        stamps[1],
        stamps[0],
      ]);
      return rows[0];
    });
    expect(rising).toEqual({ rising: true, after_start: true });
  });
});

describe('groups announce', () => {
  it("re-sends every group of one team as group.updated, as a GET answers it, and no other team's", async () => {
    const from = Number((await h.db.knex('outbox').max('seq as max').first())?.max ?? 0);
    const ids = (await h.db.knex('groups').where({ team_id: h.team.id }).pluck('id')) as string[];
    expect(ids.length).toBeGreaterThan(1);
    expect(await h.services.groups.announce(h.team.id)).toEqual({ announced: ids.length });
    const events = await h.db.knex('outbox').where('seq', '>', from).orderBy('seq');
    expect(events.map((e) => e.type)).toEqual(ids.map(() => 'group.updated'));
    expect(events.map((e) => e.payload.data.id).sort()).toEqual([...ids].sort());
    const [first] = events;
    expect(first.payload.data).toEqual((await h.request('GET', `/v1/teams/${first.payload.data.id}`)).body.data);
  });

  it('re-sends every group of every team, two teams holding one id included', async () => {
    const id = await createGroup(h, 'Announced twice');
    // Ids are unique per tenant: a legacy UUID two tenants' keys wrote is a group in each.
    await h.db.knex('groups').insert({ id, team_id: h.otherTeam.id, name: 'Announced twice', slug: 'announced-twice' });
    const from = Number((await h.db.knex('outbox').max('seq as max').first())?.max ?? 0);
    const all = Number((await h.db.knex('groups').count('* as n').first())?.n);
    expect(await h.services.groups.announce()).toEqual({ announced: all });
    const events = await h.db.knex('outbox').where('seq', '>', from).andWhereRaw("payload->'data'->>'id' = ?", [id]);
    expect(events.map((e) => e.payload.team_id).sort()).toEqual([h.team.id, h.otherTeam.id].sort());
  });
});

describe('the migration of free-text group_ids', () => {
  let db: TestDatabase;
  afterAll(async () => {
    await db?.drop();
  });

  it('makes a group per distinct string of a live key, named by it, and rewrites the keys in place', async () => {
    db = await createTestDatabase('fw_auth_groups');
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20261125_0020'));
    await migrate(db.knex, before);
    const [team] = await db.knex('teams').insert({ name: 'Legacy' }).returning('id');
    const [other] = await db.knex('teams').insert({ name: 'Other' }).returning('id');
    const uuid = 'A1B2C3D4-0000-4000-8000-000000000001';
    const key = (team_id: number, name: string, group_ids: string[], revoked = false) => ({
      id: crypto.randomUUID(),
      team_id,
      name,
      kind: 'group',
      role: 'user',
      on_call_role: 'user',
      capabilities: ['read'],
      group_ids,
      prefix: `fwk_${name}`,
      token_hash: 'x',
      revoked_at: revoked ? new Date() : null,
    });
    const keys = [
      key(team.id, 'a', ['Ops', 'ops', uuid]),
      key(team.id, 'b', ['Ops', 'Data team']),
      key(team.id, 'c', ['gone'], true),
      key(other.id, 'd', ['Ops']),
    ];
    await db.knex('api_keys').insert(keys);

    await migrate(db.knex, migrations);

    const groups = await db.knex('groups').orderBy(['team_id', 'name']).select('id', 'team_id', 'name', 'slug', 'user_ids');
    expect(groups).toEqual(
      [
        { id: legacyGroupId(team.id, 'Data team'), team_id: team.id, name: 'Data team', slug: 'data-team', user_ids: [] },
        { id: legacyGroupId(team.id, 'Ops'), team_id: team.id, name: 'Ops', slug: 'ops', user_ids: [] },
        // Another string of the same name (in another case) gets a name and slug of its own.
        { id: legacyGroupId(team.id, 'ops'), team_id: team.id, name: 'ops (2)', slug: 'ops-2', user_ids: [] },
        // A UUID stays itself and names a group now.
        { id: uuid.toLowerCase(), team_id: team.id, name: uuid, slug: uuid.toLowerCase(), user_ids: [] },
        { id: legacyGroupId(other.id, 'Ops'), team_id: other.id, name: 'Ops', slug: 'ops', user_ids: [] },
      ].sort((x, y) => x.team_id - y.team_id || x.name.localeCompare(y.name)),
    );
    const rewritten = Object.fromEntries((await db.knex('api_keys').select('name', 'group_ids')).map((k) => [k.name, k.group_ids]));
    expect(rewritten).toEqual({
      a: [legacyGroupId(team.id, 'Ops'), legacyGroupId(team.id, 'ops'), uuid.toLowerCase()],
      b: [legacyGroupId(team.id, 'Ops'), legacyGroupId(team.id, 'Data team')],
      // A revoked key is rewritten too, but makes no group.
      c: [legacyGroupId(team.id, 'gone')],
      d: [legacyGroupId(other.id, 'Ops')],
    });
    expect(legacyGroupId(team.id, 'Ops')).not.toBe(legacyGroupId(other.id, 'Ops'));
    // Each new group is announced, as the API announces one.
    const announced = await db.knex('outbox').where({ type: 'group.created' }).orderBy('seq');
    expect(announced.map((e) => e.payload.data.id).sort()).toEqual(groups.map((g: { id: string }) => g.id).sort());
    expect(announced[0].payload.data).toMatchObject({ type: 'groups', attributes: { managed_by: 'api', user_ids: [], admin_ids: [] } });
  });

  it("gives each tenant whose keys wrote one UUID a group of that id, not the first tenant's alone", async () => {
    const shared = await createTestDatabase('fw_auth_groups_shared');
    try {
      await migrate(shared.knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20261125_0020')));
      const teams = await shared
        .knex('teams')
        .insert([{ name: 'First' }, { name: 'Second' }])
        .returning('id');
      const uuid = 'b1b2c3d4-0000-4000-8000-000000000002';
      await shared.knex('api_keys').insert(
        teams.map(({ id }: { id: number }, i: number) => ({
          id: crypto.randomUUID(),
          team_id: id,
          name: `k${i}`,
          kind: 'group',
          role: 'user',
          on_call_role: 'user',
          capabilities: ['read'],
          group_ids: [uuid.toUpperCase()],
          prefix: `fwk_k${i}`,
          token_hash: 'x',
        })),
      );

      await migrate(shared.knex, migrations);

      // Each tenant's records keep the UUID (incident-config and on-call keep UUIDs), so each tenant's key must too, with a group of its own.
      const groups = await shared.knex('groups').where({ id: uuid }).orderBy('team_id').select('team_id', 'name');
      expect(groups.map((g) => [g.team_id, g.name.toLowerCase()])).toEqual(teams.map(({ id }: { id: number }) => [id, uuid]));
      expect(await shared.knex('api_keys').orderBy('name').pluck('group_ids')).toEqual([[uuid], [uuid]]);
      // One announcement per tenant; the migration's order over tenants is not part of its contract.
      const announced = await shared.knex('outbox').where({ type: 'group.created' });
      const byTeam = announced.map((e) => [e.payload.team_id, e.payload.data.id]).sort((a, b) => a[0] - b[0]);
      expect(byTeam).toEqual(teams.map(({ id }: { id: number }) => [id, uuid]));
    } finally {
      await shared.drop();
    }
  });
});
