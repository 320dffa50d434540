import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const alice = { user_id: 101, role: 'user' };
const bob = { user_id: 102, role: 'user' };
const teamKey = { user_id: null, role: 'admin' };
const stranger = { team_id: 2, user_id: 201, role: 'user' };

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'dashboards', attributes } });
const create = (attributes: Record<string, unknown>, principal: Record<string, unknown> = alice) =>
  h.call('POST', '/v1/dashboards', { body: body(attributes), principal });
const pointers = (res: { body: { errors: { source?: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);
const count = async () => Number((await h.db.knex('dashboards').count({ n: '*' }))[0].n);

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'dashboard.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('dashboards', () => {
  it('creates, gets by id and slug, updates with PUT, lists and deletes, emitting each change', async () => {
    const created = await create({
      name: 'Ops overview',
      owner: 'user',
      color: '#FCF2CF',
      period: 'week',
      range: '2026-01-01T00:00:00Z to 2026-02-01T00:00:00Z',
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('dashboards');
    expect(attributes).toEqual({
      team_id: 1,
      user_id: 101,
      name: 'Ops overview',
      slug: expect.stringMatching(/^ops-overview-[a-z]{10}$/),
      description: null,
      owner: 'user',
      public: false,
      range: '2026-01-01T00:00:00Z to 2026-02-01T00:00:00Z',
      period: 'week',
      auto_refresh: false,
      color: '#FCF2CF',
      icon: '',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // A dashboard the team does not see has an unlisted slug (docs/security.md).
    expect((await h.call('GET', `/v1/dashboards/${attributes.slug}`, { principal: alice })).body.data.id).toBe(id);

    const updated = await h.call('PUT', `/v1/dashboards/${id}`, {
      principal: alice,
      body: body({ description: 'Weekly', auto_refresh: true, icon: '📈', color: null }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      name: 'Ops overview',
      description: 'Weekly',
      auto_refresh: true,
      icon: '📈',
      color: null,
    });
    expect((await h.call('PATCH', `/v1/dashboards/${id}`, { principal: alice, body: body({ name: 'x' }) })).status).toBe(404);

    expect((await h.call('GET', '/v1/dashboards', { principal: alice })).body.data.map((d: { id: string }) => d.id)).toContain(id);
    const deleted = await h.call('DELETE', `/v1/dashboards/${id}`, { principal: alice });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'dashboards', attributes: { name: 'Ops overview' } });
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: alice })).status).toBe(404);

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual(['dashboard.created', 'dashboard.updated', 'dashboard.deleted']);
  });

  it.each(['#FF0000', '#abc', '#1a2B3c'])('takes any hex colour code, such as %s', async (color) => {
    const res = await create({ name: `Colour ${color}`, owner: 'team', color });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes.color).toBe(color);
  });

  it.each([
    ['missing name', { owner: 'team' }, '/data/attributes/name'],
    ['missing owner', { name: 'x' }, '/data/attributes/owner'],
    ['an unknown owner', { name: 'x', owner: 'group' }, '/data/attributes/owner'],
    ['an unknown period', { name: 'x', owner: 'team', period: 'year' }, '/data/attributes/period'],
    ['a colour that is not a hex code', { name: 'x', owner: 'team', color: 'red' }, '/data/attributes/color'],
    ['a hex code of four digits', { name: 'x', owner: 'team', color: '#FF00' }, '/data/attributes/color'],
    ['a range that is not "<t1> to <t2>"', { name: 'x', owner: 'team', range: 'last week' }, '/data/attributes/range'],
    ['a non-boolean public', { name: 'x', owner: 'team', public: 'yes' }, '/data/attributes/public'],
    ['an unknown attribute', { name: 'x', owner: 'team', team_id: 2 }, '/data/attributes/team_id'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const before = await count();
    const res = await create(attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await count()).toBe(before);
  });

  it("gives a user-owned dashboard to the caller's user, so a key acting for no user gets a 422", async () => {
    const refused = await create({ name: "Nobody's", owner: 'user' }, teamKey);
    expect(refused.status).toBe(422);
    expect(pointers(refused)).toEqual(['/data/attributes/owner']);
    const team = await create({ name: "Everyone's", owner: 'team' }, teamKey);
    expect(team.status).toBe(201);
    expect(team.body.data.attributes).toMatchObject({ owner: 'team', user_id: null });
    // Taking a team dashboard for oneself hides it from the team: only an admin may, and it
    // becomes that admin's; handing it back clears the user.
    const refusedTake = await h.call('PUT', `/v1/dashboards/${team.body.data.id}`, { principal: bob, body: body({ owner: 'user' }) });
    expect(refusedTake.status).toBe(403);
    const admin = { user_id: 1, role: 'admin' };
    const taken = await h.call('PUT', `/v1/dashboards/${team.body.data.id}`, { principal: admin, body: body({ owner: 'user' }) });
    expect(taken.body.data.attributes).toMatchObject({ owner: 'user', user_id: 1 });
    expect((await h.call('GET', `/v1/dashboards/${team.body.data.id}`, { principal: alice })).status).toBe(404);
    const back = await h.call('PUT', `/v1/dashboards/${team.body.data.id}`, { principal: admin, body: body({ owner: 'team' }) });
    expect(back.body.data.attributes).toMatchObject({ owner: 'team', user_id: null });
  });

  it("shows team and public dashboards to the whole team, a user's own to that user and the admins", async () => {
    const own = (await create({ name: `Own ${randomUUID()}`, owner: 'user' })).body.data.id;
    const shared = (await create({ name: `Shared ${randomUUID()}`, owner: 'team' })).body.data.id;
    const open = (await create({ name: `Open ${randomUUID()}`, owner: 'user', public: true })).body.data.id;
    const seen = async (p: Record<string, unknown>) =>
      (await h.call('GET', '/v1/dashboards?page[size]=100', { principal: p })).body.data.map((d: { id: string }) => d.id);
    expect(await seen(bob)).toEqual(expect.arrayContaining([shared, open]));
    expect(await seen(bob)).not.toContain(own);
    expect(await seen(teamKey)).toEqual(expect.arrayContaining([own, shared, open]));
    expect(await seen(stranger)).toEqual([]);
    // A public dashboard is for reading: only its owner changes it.
    expect((await h.call('PUT', `/v1/dashboards/${open}`, { principal: bob, body: body({ name: 'Mine now' }) })).status).toBe(403);
    expect((await h.call('PUT', `/v1/dashboards/${shared}`, { principal: bob, body: body({ description: 'Team edit' }) })).status).toBe(
      200,
    );
  });

  it("sets a dashboard the caller sees as its user's default, one per user", async () => {
    const first = (await create({ name: `First ${randomUUID()}`, owner: 'team' })).body.data.id;
    const second = (await create({ name: `Second ${randomUUID()}`, owner: 'team' })).body.data.id;
    const own = (await create({ name: `Own ${randomUUID()}`, owner: 'user' })).body.data.id;
    const set = await h.call('POST', `/v1/dashboards/${first}/set_default`, { principal: bob });
    expect(set.status).toBe(200);
    expect(set.body.data.id).toBe(first);
    expect((await h.call('POST', `/v1/dashboards/${second}/set_default`, { principal: bob })).status).toBe(200);
    expect((await h.call('POST', `/v1/dashboards/${own}/set_default`, { principal: bob })).status).toBe(404);
    expect((await h.call('POST', `/v1/dashboards/${first}/set_default`, { principal: teamKey })).status).toBe(422);
    expect(await h.db.knex('dashboard_defaults').where({ team_id: 1, user_id: 102 }).select('dashboard_id')).toEqual([
      { dashboard_id: second },
    ]);
  });

  it('keeps teams apart: another team answers 404 and changes nothing', async () => {
    const id = (await create({ name: 'Team one board', owner: 'team' })).body.data.id;
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: stranger })).status).toBe(404);
    expect((await h.call('GET', '/v1/dashboards/team-one-board', { principal: stranger })).status).toBe(404);
    expect((await h.call('PUT', `/v1/dashboards/${id}`, { principal: stranger, body: body({ name: 'hijack' }) })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: stranger })).status).toBe(404);
    expect((await h.call('POST', `/v1/dashboards/${id}/duplicate`, { principal: stranger })).status).toBe(404);
    expect((await h.call('GET', `/v1/dashboards/${randomUUID()}`, { principal: alice })).status).toBe(404);
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: alice })).body.data.attributes.name).toBe('Team one board');
  });

  it("keeps owner and visibility out of an update grant's reach", async () => {
    const id = (await create({ name: `Alice's ${randomUUID()}`, owner: 'user' })).body.data.id;
    await h.call('POST', '/v1/authorizations', {
      principal: alice,
      body: {
        data: {
          type: 'authorizations',
          attributes: {
            authorizable_id: id,
            authorizable_type: 'Dashboard',
            grantee_type: 'User',
            grantee_id: '102',
            permissions: ['read', 'update'],
          },
        },
      },
    });
    for (const change of [{ owner: 'team' }, { public: true }]) {
      const res = await h.call('PUT', `/v1/dashboards/${id}`, { principal: bob, body: body(change) });
      expect(res.status).toBe(403);
    }
    expect((await h.call('PUT', `/v1/dashboards/${id}`, { principal: bob, body: body({ description: 'edited' }) })).status).toBe(200);
    expect(await h.db.knex('dashboards').where({ id }).first()).toMatchObject({ owner: 'user', public: false, user_id: 101 });
  });

  it("lets no grantee hand a user's dashboard to the team, which would give everyone (itself included) destroy", async () => {
    const grant = (dashboardId: string, grantee: string, permissions: string[]) =>
      h.call('POST', '/v1/authorizations', {
        principal: alice,
        body: {
          data: {
            type: 'authorizations',
            attributes: {
              authorizable_id: dashboardId,
              authorizable_type: 'Dashboard',
              grantee_type: 'User',
              grantee_id: grantee,
              permissions,
            },
          },
        },
      });
    const toTeam = (dashboardId: string, principal: Record<string, unknown>) =>
      h.call('PUT', `/v1/dashboards/${dashboardId}`, { principal, body: body({ owner: 'team' }) });
    const id = (await create({ name: `Alice's ${randomUUID()}`, owner: 'user' })).body.data.id;
    expect((await grant(id, '102', ['read', 'update', 'authorize'])).status).toBe(201);

    const refused = await toTeam(id, bob);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('not_granted');
    expect(await h.db.knex('dashboards').where({ id }).first()).toMatchObject({ owner: 'user', user_id: 101 });
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(403);
    // Even a grantee holding every right: the dashboard would stop being its owner's.
    const full = (await create({ name: `Alice's ${randomUUID()}`, owner: 'user' })).body.data.id;
    await grant(full, '102', ['read', 'update', 'authorize', 'destroy']);
    expect((await toTeam(full, bob)).status).toBe(403);
    // What the grantee holds it may still give: the team may read.
    expect((await h.call('PUT', `/v1/dashboards/${id}`, { principal: bob, body: body({ public: true }) })).status).toBe(200);

    expect((await toTeam(id, alice)).status).toBe(200);
    expect((await toTeam(full, { user_id: 1, role: 'admin' })).status).toBe(200);
    expect(await h.db.knex('dashboards').whereIn('id', [id, full]).pluck('owner')).toEqual(['team', 'team']);
  });
});
