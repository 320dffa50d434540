import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

// Users of team 1 with the plain role; team admins see every dashboard (docs/decisions.md).
const alice = { user_id: 101, role: 'user' };
const bob = { user_id: 102, role: 'user' };
const carol = { user_id: 103, role: 'user' };
const admin = { user_id: 1, role: 'admin' };
const teamKey = { user_id: null, role: 'user' };
const stranger = { team_id: 2, user_id: 201, role: 'user' };

const dashboardBody = (attributes: Record<string, unknown>) => ({ data: { type: 'dashboards', attributes } });
const grantBody = (attributes: Record<string, unknown>) => ({ data: { type: 'authorizations', attributes } });
const privateDashboard = async (owner: Record<string, unknown> = alice, name = `Mine ${randomUUID()}`) => {
  const res = await h.call('POST', '/v1/dashboards', { body: dashboardBody({ name, owner: 'user' }), principal: owner });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
const grant = (dashboardId: string, grantee: Record<string, unknown>, permissions: string[], by: Record<string, unknown> = alice) =>
  h.call('POST', '/v1/authorizations', {
    principal: by,
    body: grantBody({
      authorizable_id: dashboardId,
      authorizable_type: 'Dashboard',
      grantee_type: grantee.type ?? 'User',
      grantee_id: String(grantee.type === 'Team' ? grantee.id : grantee.user_id),
      permissions,
    }),
  });
const pointers = (res: { body: { errors: { source?: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'authorization.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('authorizations on dashboards', () => {
  it('a second user of the team cannot read a private dashboard until granted (404), and can after (200)', async () => {
    const id = await privateDashboard();
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(404);
    expect((await h.call('GET', '/v1/dashboards', { principal: bob })).body.data.map((d: { id: string }) => d.id)).not.toContain(id);

    const granted = await grant(id, bob, ['read']);
    expect(granted.status).toBe(201);
    expect(granted.body.data.attributes).toEqual({
      authorizable_id: id,
      authorizable_type: 'Dashboard',
      grantee_id: '102',
      grantee_type: 'User',
      permissions: ['read'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const read = await h.call('GET', `/v1/dashboards/${id}`, { principal: bob });
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(id);
    expect((await h.call('GET', '/v1/dashboards', { principal: bob })).body.data.map((d: { id: string }) => d.id)).toContain(id);
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: carol })).status).toBe(404);
  });

  it('allows exactly what the grant lists: read-only is a 403 on changes, update allows PUT, destroy allows DELETE', async () => {
    const id = await privateDashboard();
    const grantId = (await grant(id, bob, ['read'])).body.data.id;
    const put = () => h.call('PUT', `/v1/dashboards/${id}`, { principal: bob, body: dashboardBody({ name: `Renamed ${randomUUID()}` }) });
    const refused = await put();
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('not_granted');
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(403);

    const changed = await h.call('PUT', `/v1/authorizations/${grantId}`, {
      principal: alice,
      body: grantBody({ permissions: ['read', 'update'] }),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes.permissions).toEqual(['read', 'update']);
    expect((await put()).status).toBe(200);
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(403);

    await h.call('PUT', `/v1/authorizations/${grantId}`, { principal: alice, body: grantBody({ permissions: ['read', 'destroy'] }) });
    expect((await put()).status).toBe(403);
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(200);
    // The grant went with its dashboard.
    expect((await h.call('GET', `/v1/authorizations/${grantId}`, { principal: alice })).status).toBe(404);
  });

  it('gives a Team grant to everyone of the team, and its team-wide keys act as the team', async () => {
    const id = await privateDashboard();
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: teamKey })).status).toBe(404);
    expect((await grant(id, { type: 'Team', id: 1 }, ['read'])).status).toBe(201);
    for (const p of [bob, carol, teamKey]) expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: p })).status).toBe(200);
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: stranger })).status).toBe(404);
  });

  it('lets only the owner, an admin or a holder of authorize grant, change or revoke', async () => {
    const id = await privateDashboard();
    const bobs = (await grant(id, bob, ['read'])).body.data.id;
    const byBob = await grant(id, carol, ['read'], bob);
    expect(byBob.status).toBe(403);
    expect(byBob.body.errors[0].code).toBe('not_granted');
    expect(
      (await h.call('PUT', `/v1/authorizations/${bobs}`, { principal: bob, body: grantBody({ permissions: ['read', 'update'] }) })).status,
    ).toBe(403);
    expect((await h.call('DELETE', `/v1/authorizations/${bobs}`, { principal: bob })).status).toBe(403);

    expect((await grant(id, carol, ['read'], admin)).status).toBe(201);
    await h.call('PUT', `/v1/authorizations/${bobs}`, { principal: alice, body: grantBody({ permissions: ['read', 'authorize'] }) });
    const dave = { user_id: 104, role: 'user' };
    expect((await grant(id, dave, ['read'], bob)).status).toBe(201);
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: dave })).status).toBe(200);
    const revoked = await h.call('DELETE', `/v1/authorizations/${bobs}`, { principal: alice });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: bobs, type: 'authorizations', attributes: { permissions: ['read', 'authorize'] } });
    expect((await h.call('GET', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(404);
  });

  it('lets a holder of authorize hand on only what it holds, to others or to itself', async () => {
    const id = await privateDashboard();
    const own = await grant(id, bob, ['read', 'authorize']);
    expect(own.status).toBe(201);
    const widen = await h.call('PUT', `/v1/authorizations/${own.body.data.id}`, {
      principal: bob,
      body: grantBody({ permissions: ['read', 'authorize', 'update', 'destroy'] }),
    });
    expect(widen.status).toBe(403);
    expect(widen.body.errors[0].code).toBe('not_granted');
    expect((await grant(id, { type: 'Team', id: 1 }, ['read', 'destroy'], bob)).status).toBe(403);
    expect((await grant(id, carol, ['read'], bob)).status).toBe(201);
    expect((await h.call('DELETE', `/v1/dashboards/${id}`, { principal: bob })).status).toBe(403);
  });

  it('answers a dashboard the caller cannot see, or of another team, as a 422 at authorizable_id, and hides its grants', async () => {
    const id = await privateDashboard();
    await grant(id, bob, ['read']);
    for (const [dashboardId, by] of [
      [id, carol],
      [id, stranger],
      [randomUUID(), alice],
    ] as const) {
      const res = await grant(dashboardId, { user_id: 105 }, ['read'], by);
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/data/attributes/authorizable_id']);
    }
    const listed = async (p: Record<string, unknown>) =>
      (await h.call('GET', `/v1/authorizations?filter[authorizable_id]=${id}`, { principal: p })).body.data.length;
    expect(await listed(alice)).toBe(1);
    expect(await listed(bob)).toBe(1);
    expect(await listed(carol)).toBe(0);
    expect(await listed(stranger)).toBe(0);
  });

  it.each([
    ['no permissions', { permissions: undefined }, '/data/attributes/permissions'],
    ['an unknown permission', { permissions: ['admin'] }, '/data/attributes/permissions/0'],
    ['another authorizable type', { authorizable_type: 'Incident' }, '/data/attributes/authorizable_type'],
    ['an unknown grantee type', { grantee_type: 'Group' }, '/data/attributes/grantee_type'],
    ['a Team grant to another team', { grantee_type: 'Team', grantee_id: '2' }, '/data/attributes/grantee_id'],
    ['a User grant to no user id', { grantee_id: 'bob' }, '/data/attributes/grantee_id'],
    ['a non-uuid authorizable_id', { authorizable_id: 'nope' }, '/data/attributes/authorizable_id'],
    ['an unknown attribute', { extra: 1 }, '/data/attributes/extra'],
  ])('refuses %s with a 422 and writes nothing', async (_name, override, pointer) => {
    const id = await privateDashboard();
    const attributes = {
      authorizable_id: id,
      authorizable_type: 'Dashboard',
      grantee_type: 'User',
      grantee_id: '102',
      permissions: ['read'],
      ...override,
    };
    const res = await h.call('POST', '/v1/authorizations', { principal: alice, body: grantBody(attributes) });
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(Number((await h.db.knex('authorizations').where({ authorizable_id: id }).count({ n: '*' }))[0].n)).toBe(0);
  });

  it('accepts only permissions on PUT, refuses a second grant to one grantee, and filters', async () => {
    const id = await privateDashboard();
    const first = (await grant(id, bob, ['read'])).body.data.id;
    const dup = await grant(id, bob, ['update']);
    expect(dup.status).toBe(409);
    expect(pointers(dup)).toEqual(['/data/attributes/grantee_id']);
    const moved = await h.call('PUT', `/v1/authorizations/${first}`, { principal: alice, body: grantBody({ grantee_id: '103' }) });
    expect(moved.status).toBe(422);
    await grant(id, { type: 'Team', id: 1 }, ['read']);
    const list = async (query: string) =>
      (await h.call('GET', `/v1/authorizations?filter[authorizable_id]=${id}&${query}`, { principal: alice })).body;
    expect(
      (await list('filter[grantee_type]=Team')).data.map((g: { attributes: { grantee_id: string } }) => g.attributes.grantee_id),
    ).toEqual(['1']);
    expect((await list('filter[grantee_id]=102')).data.map((g: { id: string }) => g.id)).toEqual([first]);
    expect((await list('filter[authorizable_type]=Dashboard&sort=-created_at')).meta.total_count).toBe(2);
    expect((await h.call('GET', '/v1/authorizations?filter[authorizable_id]=nope', { principal: alice })).status).toBe(400);
    expect((await h.call('GET', `/v1/authorizations/${first}`, { principal: stranger })).status).toBe(404);
    expect((await h.call('PUT', `/v1/authorizations/${first}`, { principal: stranger, body: grantBody({ permissions: [] }) })).status).toBe(
      404,
    );
    expect((await h.call('DELETE', `/v1/authorizations/${first}`, { principal: stranger })).status).toBe(404);
  });

  it('emits authorization.created, updated and deleted', async () => {
    const id = await privateDashboard();
    const grantId = (await grant(id, carol, ['read'])).body.data.id;
    await h.call('PUT', `/v1/authorizations/${grantId}`, { principal: alice, body: grantBody({ permissions: ['read', 'update'] }) });
    await h.call('DELETE', `/v1/authorizations/${grantId}`, { principal: alice });
    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === grantId);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual(['authorization.created', 'authorization.updated', 'authorization.deleted']);
  });
});
