import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const doc = (attributes: Record<string, unknown>) => ({ data: { type: 'groups', attributes } });
const create = (attributes: Record<string, unknown>, as?: Record<string, unknown>) =>
  h.request('POST', '/v1/teams', { body: doc(attributes), as });

async function lastSeq(): Promise<number> {
  const row = await h.db.knex('outbox').max('seq as max').first();
  return Number(row?.max ?? 0);
}
async function eventsSince(seq: number, prefix = 'group.') {
  const rows = await h.db.knex('outbox').where('seq', '>', seq).where('type', 'like', `${prefix}%`).orderBy('seq');
  return rows.map((r) => r.payload);
}

describe('/v1/teams (groups)', () => {
  it('creates, reads by id and slug, updates and deletes a group, each with its event', async () => {
    const from = await lastSeq();
    const created = await create({ name: 'Platform Ops', color: '#FF0000', user_ids: [h.team.userId], admin_ids: [h.team.adminId] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/teams/${id}$`));
    expect(created.body.data).toMatchObject({
      type: 'groups',
      attributes: {
        name: 'Platform Ops',
        slug: 'platform-ops',
        managed_by: 'api',
        // Admins are members.
        user_ids: [h.team.userId, h.team.adminId],
        admin_ids: [h.team.adminId],
        notify_emails: [],
        chat_channels: [],
        position: expect.any(Number),
      },
    });
    expect((await h.request('GET', '/v1/teams/platform-ops')).body.data.id).toBe(id);
    expect((await h.request('GET', `/v1/teams/${id}`)).body.data.attributes.name).toBe('Platform Ops');

    const updated = await h.request('PUT', `/v1/teams/${id}`, {
      body: doc({ description: 'Runs the platform', user_ids: [h.team.adminId], chat_channels: [{ id: 'C1', name: 'ops' }] }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      description: 'Runs the platform',
      user_ids: [h.team.adminId],
      admin_ids: [h.team.adminId],
      chat_channels: [{ id: 'C1', name: 'ops' }],
    });
    // Members sent without admins keep only the admins still among them.
    const demoted = await h.request('PUT', `/v1/teams/${id}`, { body: doc({ user_ids: [h.team.userId] }) });
    expect(demoted.body.data.attributes).toMatchObject({ user_ids: [h.team.userId], admin_ids: [] });

    const removed = await h.request('DELETE', `/v1/teams/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(id);
    expect((await h.request('GET', `/v1/teams/${id}`)).status).toBe(404);

    const events = await eventsSince(from);
    expect(events.map((e) => e.type)).toEqual(['group.created', 'group.updated', 'group.updated', 'group.deleted']);
    expect(events[0]).toMatchObject({
      team_id: h.team.id,
      data: { id, type: 'groups', attributes: { user_ids: [h.team.userId, h.team.adminId], admin_ids: [h.team.adminId] } },
    });
    expect(events[3].data.attributes).toMatchObject({ user_ids: [h.team.userId], admin_ids: [] });
  });

  it('refuses unknown users, other tenants users, unknown attributes and a missing name with pointers', async () => {
    const unknown = await create({ name: 'Ghosts', user_ids: [h.team.userId, 999_999] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ source: { pointer: '/data/attributes/user_ids/1' } })]);
    const foreign = await create({ name: 'Foreign', admin_ids: [h.otherTeam.adminId] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].source.pointer).toBe('/data/attributes/admin_ids/0');
    expect((await create({ name: 'X', slack_channels: [] })).status).toBe(422);
    const nameless = await create({ description: 'no name' });
    expect(nameless.status).toBe(422);
    expect(nameless.body.errors[0].source.pointer).toBe('/data/attributes/name');
    expect((await create({ name: 'Bad colour', color: 'red' })).body.errors[0].source.pointer).toBe('/data/attributes/color');
    await create({ name: 'Unique' });
    const twice = await create({ name: 'unique' });
    expect(twice.status).toBe(409);
    expect(twice.body.errors[0].source.pointer).toBe('/data/attributes/name');
  });

  it('never gives a group the slug properties, the teams catalog the gateway sends to incident-config', async () => {
    const first = await create({ name: 'Properties' });
    expect(first.status).toBe(201);
    expect(first.body.data.attributes.slug).toBe('properties-2');
    const bulk = await h.request('POST', '/v1/teams/bulk_upsert', { body: { entities: [{ external_id: 'props', name: 'Properties!' }] } });
    expect(bulk.status).toBe(200);
    expect((await h.request('GET', '/v1/teams?filter[external_id]=props')).body.data[0].attributes.slug).toBe('properties-3');
    expect((await h.request('GET', '/v1/teams/properties-2')).body.data.id).toBe(first.body.data.id);
    await h.request('POST', '/v1/teams/bulk_delete', { body: { external_ids: ['props'] } });
    await h.request('DELETE', `/v1/teams/${first.body.data.id}`);
  });

  it("answers 404 for another tenant's group, by id and by slug, for every operation", async () => {
    const theirs = await create({ name: 'Their group' }, { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId });
    expect(theirs.status).toBe(201);
    const id = theirs.body.data.id;
    for (const ref of [id, 'their-group']) {
      expect((await h.request('GET', `/v1/teams/${ref}`)).status).toBe(404);
      expect((await h.request('PUT', `/v1/teams/${ref}`, { body: doc({ name: 'Mine now' }) })).status).toBe(404);
      expect((await h.request('DELETE', `/v1/teams/${ref}`)).status).toBe(404);
    }
    const list = await h.request('GET', '/v1/teams?page[size]=100');
    expect(list.body.data.map((g: { id: string }) => g.id)).not.toContain(id);
  });

  it('lists with the reference filters, sorts, offset pages and cursor pages', async () => {
    for (const name of ['Alpha squad', 'Beta squad', 'Gamma squad']) await create({ name, external_id: `ext-${name}`, color: '#00FF00' });
    const names = async (query: string) =>
      (await h.request('GET', `/v1/teams?${query}`)).body.data.map((g: { attributes: { name: string } }) => g.attributes.name);
    expect(await names('filter[search]=squad&sort=-name')).toEqual(['Gamma squad', 'Beta squad', 'Alpha squad']);
    expect(await names('filter[name]=beta squad')).toEqual(['Beta squad']);
    expect(await names('filter[external_id]=ext-Alpha squad')).toEqual(['Alpha squad']);
    expect(await names('filter[slug][in]=alpha-squad,gamma-squad&sort=slug')).toEqual(['Alpha squad', 'Gamma squad']);
    const page = await h.request('GET', '/v1/teams?filter[search]=squad&sort=name&page[size]=2');
    expect(page.body.meta).toMatchObject({ total_count: 3 });
    // The next page by cursor: what page 2 of the offset pages holds.
    const cursor = page.body.meta.next_cursor;
    expect(typeof cursor).toBe('string');
    const next = await h.request('GET', `/v1/teams?filter[search]=squad&sort=name&page[size]=2&page[after]=${cursor}`);
    expect(next.body.data.map((g: { attributes: { name: string } }) => g.attributes.name)).toEqual(['Gamma squad']);
    expect(next.body.meta.next_cursor).toBeUndefined();
    // A cursor of another filter set is refused.
    expect((await h.request('GET', `/v1/teams?sort=name&page[size]=2&page[after]=${cursor}`)).status).toBe(400);
    expect((await h.request('GET', '/v1/teams?filter[nope]=1')).status).toBe(400);
  });

  it("includes its members as /v1/users answers them, and accepts on-call's includes adding nothing", async () => {
    const id = (await create({ name: 'Included', user_ids: [h.team.userId], admin_ids: [h.team.adminId] })).body.data.id;
    const res = await h.request('GET', `/v1/teams/${id}?include=users`);
    expect(res.status).toBe(200);
    const user = await h.request('GET', `/v1/users/${h.team.userId}`);
    expect(res.body.included.map((u: { id: string }) => Number(u.id))).toEqual([h.team.adminId, h.team.userId].sort((a, b) => a - b));
    expect(res.body.included).toContainEqual(user.body.data);
    const list = await h.request('GET', '/v1/teams?include=users&filter[name]=included');
    expect(list.body.included).toHaveLength(2);
    const onCall = await h.request('GET', `/v1/teams/${id}?include=schedules,escalation_policies,users`);
    expect(onCall.status).toBe(200);
    expect(onCall.body.included.map((r: { type: string }) => r.type)).toEqual(['users', 'users']);
    expect((await h.request('GET', `/v1/teams/${id}?include=incidents`)).status).toBe(400);
  });

  it('keeps catalog property values, one per property, lower-cased ids, and refuses bad ones with pointers', async () => {
    const property = randomUUID();
    const created = await create({ name: 'Propertied', properties: [{ catalog_property_id: property.toUpperCase(), value: 'tier-1' }] });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.properties).toEqual([{ catalog_property_id: property, value: 'tier-1' }]);
    expect((await create({ name: 'Bare' })).body.data.attributes.properties).toEqual([]);
    const id = created.body.data.id;
    const cleared = await h.request('PUT', `/v1/teams/${id}`, { body: doc({ properties: null }) });
    expect(cleared.body.data.attributes.properties).toEqual([]);
    const twice = await h.request('PUT', `/v1/teams/${id}`, {
      body: doc({
        properties: [
          { catalog_property_id: property, value: 'a' },
          { catalog_property_id: property.toUpperCase(), value: 'b' },
        ],
      }),
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].source.pointer).toBe('/data/attributes/properties');
    const bad = await h.request('PUT', `/v1/teams/${id}`, { body: doc({ properties: [{ catalog_property_id: 'nope', value: 'a' }] }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/properties/0/catalog_property_id');
  });

  it('bulk upserts by external_id, all or nothing, and writes nothing for an unchanged entity', async () => {
    const from = await lastSeq();
    const first = await h.request('POST', '/v1/teams/bulk_upsert', {
      body: {
        entities: [
          { external_id: 'sre', name: 'SRE', color: '#123456' },
          { external_id: 'dba', name: 'DBA' },
        ],
      },
    });
    expect(first.status).toBe(200);
    expect(first.body.data.map((g: { attributes: { name: string } }) => g.attributes.name)).toEqual(['SRE', 'DBA']);
    const again = await h.request('POST', '/v1/teams/bulk_upsert', {
      body: {
        entities: [
          { external_id: 'sre', name: 'SRE', color: '#123456' },
          { external_id: 'dba', description: 'Databases' },
        ],
      },
    });
    expect(again.status).toBe(200);
    expect(again.body.data[1].attributes).toMatchObject({ name: 'DBA', description: 'Databases' });
    expect((await eventsSince(from)).map((e) => e.type)).toEqual(['group.created', 'group.created', 'group.updated']);

    const bad = await h.request('POST', '/v1/teams/bulk_upsert', {
      body: { entities: [{ external_id: 'new-one', name: 'New one' }, { external_id: 'nameless' }, { external_id: 'sre', fields: [] }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { index: number; external_id: string }) => [e.index, e.external_id])).toEqual([
      [1, 'nameless'],
      [2, 'sre'],
    ]);
    expect((await h.request('GET', '/v1/teams?filter[external_id]=new-one')).body.data).toEqual([]);

    // A refusal met while writing (a name taken) undoes the entities written before it.
    const clash = await h.request('POST', '/v1/teams/bulk_upsert', {
      body: {
        entities: [
          { external_id: 'written-first', name: 'Written first' },
          { external_id: 'clash', name: 'sre' },
        ],
      },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors.map((e: { index: number; external_id: string }) => [e.index, e.external_id])).toEqual([[1, 'clash']]);
    expect((await h.request('GET', '/v1/teams?filter[external_id]=written-first')).body.data).toEqual([]);
  });

  it("changes a group's members only for the tenant's admins and the group's own admins", async () => {
    const plain = { user_id: h.team.userId, role: 'user', on_call_role: 'user' };
    const id = (await create({ name: 'Guarded', user_ids: [h.team.adminId] })).body.data.id;
    const put = (attributes: Record<string, unknown>, as?: Record<string, unknown>) =>
      h.request('PUT', `/v1/teams/${id}`, { body: doc(attributes), as });
    // A plain user with ir.groups:write may change the rest, and send the lists back unchanged.
    expect((await put({ description: 'kept', user_ids: [h.team.adminId], admin_ids: [] }, plain)).status).toBe(200);
    const joined = await put({ user_ids: [h.team.adminId, h.team.userId] }, plain);
    expect(joined.status).toBe(403);
    expect(joined.body.errors[0].code).toBe('not_group_admin');
    expect((await put({ admin_ids: [h.team.userId] }, plain)).status).toBe(403);
    expect((await h.request('GET', `/v1/teams/${id}`)).body.data.attributes.user_ids).toEqual([h.team.adminId]);
    // The tenant's admin makes them the group's admin; then they manage its members.
    expect((await put({ admin_ids: [h.team.userId] })).status).toBe(200);
    const removed = await put({ user_ids: [h.team.userId] }, plain);
    expect(removed.status).toBe(200);
    expect(removed.body.data.attributes).toMatchObject({ user_ids: [h.team.userId], admin_ids: [h.team.userId] });
  });

  it('bulk deletes by external_id and prunes by provenance', async () => {
    await h.request('POST', '/v1/teams/bulk_upsert', {
      body: { entities: [1, 2, 3].map((n) => ({ external_id: `tf-${n}`, name: `Terraform ${n}` })) },
    });
    const byId = await h.request('POST', '/v1/teams/bulk_delete', { body: { external_ids: ['tf-1', 'missing'] } });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual({ deleted_external_ids: ['tf-1'], failed_external_ids: [], not_found_external_ids: ['missing'] });
    const pruned = await h.request('POST', '/v1/teams/bulk_delete', {
      body: { managed_by: 'api', keep_external_ids: ['tf-2', 'sre', 'dba'] },
    });
    expect(pruned.body.data.deleted_external_ids).toContain('tf-3');
    expect(pruned.body.data.deleted_external_ids).not.toContain('tf-2');
    expect((await h.request('POST', '/v1/teams/bulk_delete', { body: { managed_by: 'web' } })).status).toBe(422);
    // Another tenant's external_id is not found, and its group stays.
    const other = { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId };
    await h.request('POST', '/v1/teams/bulk_upsert', { body: { entities: [{ external_id: 'theirs', name: 'Theirs' }] }, as: other });
    const foreign = await h.request('POST', '/v1/teams/bulk_delete', { body: { external_ids: ['theirs'] } });
    expect(foreign.body.data).toMatchObject({ deleted_external_ids: [], not_found_external_ids: ['theirs'] });
    const upserted = await h.request('POST', '/v1/teams/bulk_upsert', { body: { entities: [{ external_id: 'theirs', name: 'Ours' }] } });
    expect(upserted.status).toBe(200);
    const theirs = await h.request('GET', '/v1/teams?filter[external_id]=theirs', { as: other });
    expect(theirs.body.data.map((g: { attributes: { name: string } }) => g.attributes.name)).toEqual(['Theirs']);
  });

  it('needs ir.groups for OAuth tokens, and lets group keys read groups but not write them', async () => {
    const oauth = (scopes: string[]) => ({ scopes, credential: { type: 'oauth', client_id: 'c' } });
    expect((await h.request('GET', '/v1/teams', { as: oauth(['ir.groups:read']) })).status).toBe(200);
    expect((await create({ name: 'Read only' }, oauth(['ir.groups:read']))).status).toBe(403);
    expect((await create({ name: 'Written' }, oauth(['ir.groups:write']))).status).toBe(201);
    expect((await h.request('GET', '/v1/teams', { as: oauth(['ir.services:read']) })).status).toBe(403);
    expect((await create({ name: 'Observed' }, { role: 'observer' })).status).toBe(403);

    const group = (await create({ name: 'Keyed' })).body.data.id;
    const groupKey = { group_ids: [group], user_id: null, credential: { type: 'api_key', id: 'g', kind: 'group' } };
    expect((await h.request('GET', `/v1/teams/${group}`, { as: groupKey })).status).toBe(200);
    const refused = await create({ name: 'By a group key' }, groupKey);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('group_scoped');
    expect((await h.request('PUT', `/v1/teams/${group}`, { body: doc({ name: 'Renamed' }), as: groupKey })).status).toBe(403);
    expect((await h.request('DELETE', `/v1/teams/${group}`, { as: groupKey })).status).toBe(403);
    expect((await h.request('POST', '/v1/teams/bulk_delete', { body: { external_ids: ['sre'] }, as: groupKey })).status).toBe(403);
    expect((await h.request('GET', `/v1/teams/${randomUUID()}`)).status).toBe(404);
  });

  it('a deleted user leaves every group, as member and admin, each group announced in the deletion', async () => {
    const leaving = Number((await h.services.identity.createUser({ team_id: h.team.id, email: 'leaving@one.test', name: 'Leaving' })).id);
    const led = (await create({ name: 'Led', user_ids: [h.team.userId], admin_ids: [leaving] })).body.data.id;
    const joined = (await create({ name: 'Joined', user_ids: [leaving, h.team.userId] })).body.data.id;
    const untouched = (await create({ name: 'Untouched', user_ids: [h.team.userId] })).body.data.id;
    const from = await lastSeq();

    expect((await h.request('DELETE', `/v1/users/${leaving}`)).status).toBe(200);

    const events = await eventsSince(from, '');
    const groupEvents = events.filter((e) => e.type.startsWith('group.'));
    expect(groupEvents.map((e) => [e.type, e.data.id]).sort()).toEqual(
      [
        ['group.updated', led],
        ['group.updated', joined],
      ].sort(),
    );
    expect(events.at(-1).type).toBe('user.deleted');
    const attributes = async (id: string) => (await h.request('GET', `/v1/teams/${id}`)).body.data.attributes;
    expect(await attributes(led)).toMatchObject({ user_ids: [h.team.userId], admin_ids: [] });
    expect(await attributes(joined)).toMatchObject({ user_ids: [h.team.userId], admin_ids: [] });
    expect((await attributes(untouched)).user_ids).toEqual([h.team.userId]);
    expect(groupEvents.every((e) => !e.data.attributes.user_ids.includes(leaving))).toBe(true);
  });

  it('a user deleted while a group naming them is written is never left in it', async () => {
    for (let i = 0; i < 8; i++) {
      const user = Number((await h.services.identity.createUser({ team_id: h.team.id, email: `racer-${i}@one.test`, name: 'Racer' })).id);
      const [written, deleted] = await Promise.all([
        create({ name: `Race ${i}`, user_ids: [user], admin_ids: [user] }),
        h.request('DELETE', `/v1/users/${user}`),
      ]);
      expect(deleted.status).toBe(200);
      if (written.status === 201) {
        const now = (await h.request('GET', `/v1/teams/${written.body.data.id}`)).body.data.attributes;
        expect(now).toMatchObject({ user_ids: [], admin_ids: [] });
      } else {
        expect(written.status).toBe(422);
      }
    }
  });
});
