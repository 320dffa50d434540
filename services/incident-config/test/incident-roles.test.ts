import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'incident_roles', attributes } });
const create = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', '/v1/incident_roles', { body: body(attributes), principal });
const names = (res: { body: { data: { attributes: { name: string } }[] } }) => res.body.data.map((r) => r.attributes.name);

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'incident_role.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('incident roles', () => {
  it('creates, gets by id and slug, updates with PUT, lists and deletes', async () => {
    const created = await create({ name: 'Incident Commander', summary: 'Leads', position: 1 });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('incident_roles');
    expect(attributes).toMatchObject({
      name: 'Incident Commander',
      slug: 'incident-commander',
      summary: 'Leads',
      description: null,
      position: 1,
      optional: false,
      enabled: true,
      allow_multi_user_assignment: false,
    });
    expect((await h.call('GET', '/v1/incident_roles/incident-commander')).body.data.id).toBe(id);

    const updated = await h.call('PUT', `/v1/incident_roles/${id}`, {
      body: body({ description: 'Owns the response', allow_multi_user_assignment: true }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      name: 'Incident Commander',
      description: 'Owns the response',
      allow_multi_user_assignment: true,
    });
    expect((await h.call('PATCH', `/v1/incident_roles/${id}`, { body: body({ name: 'x' }) })).status).toBe(404);

    expect((await h.call('GET', '/v1/incident_roles')).body.data.map((r: { id: string }) => r.id)).toContain(id);
    const deleted = await h.call('DELETE', `/v1/incident_roles/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'incident_roles', attributes: { name: 'Incident Commander' } });
    expect((await h.call('GET', `/v1/incident_roles/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['incident_role.created', 'incident_role.updated', 'incident_role.deleted']);
  });

  it.each([
    ['missing name', {}, '/data/attributes/name'],
    ['blank name', { name: '  ' }, '/data/attributes/name'],
    ['a slug (not writable in the reference)', { name: 'x', slug: 'x' }, '/data/attributes/slug'],
    ['non-boolean enabled', { name: 'x', enabled: 'yes' }, '/data/attributes/enabled'],
    ['negative position', { name: 'x', position: -1 }, '/data/attributes/position'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const before = await h.db.knex('incident_roles').count({ n: '*' });
    const res = await create(attributes);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    expect(await h.db.knex('incident_roles').count({ n: '*' })).toEqual(before);
  });

  it('refuses a duplicate name with 409', async () => {
    expect((await create({ name: 'Scribe' })).status).toBe(201);
    const dup = await create({ name: 'scribe' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });

  it('filters by search, slug, name, enabled and created_at, and sorts', async () => {
    const team = { team_id: 4 };
    await create({ name: 'Commander', summary: 'Runs the call' }, team);
    await create({ name: 'Comms lead', enabled: false }, team);
    await create({ name: 'Ops', description: 'Hands on keyboard' }, team);
    const list = (query: string) => h.call('GET', `/v1/incident_roles?${query}`, { principal: team });
    expect(names(await list('filter[enabled]=false'))).toEqual(['Comms lead']);
    expect(names(await list('filter[enabled]=true&sort=name'))).toEqual(['Commander', 'Ops']);
    expect(names(await list('filter[search]=keyboard'))).toEqual(['Ops']);
    expect(names(await list('filter[search]=comm&sort=-name'))).toEqual(['Comms lead', 'Commander']);
    expect(names(await list('filter[slug]=comms-lead'))).toEqual(['Comms lead']);
    expect(names(await list('filter[name][not_in]=Ops,Commander'))).toEqual(['Comms lead']);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await list(`filter[created_at][gt]=${future}`)).body.data).toEqual([]);
    expect((await list(`filter[created_at][lte]=${future}`)).body.meta.total_count).toBe(3);
    expect((await list('filter[enabled]=maybe')).status).toBe(400);
  });

  it('keeps teams apart: another team answers 404 and changes nothing', async () => {
    const id = (await create({ name: 'Team one role' })).body.data.id;
    const other = { team_id: 2 };
    expect((await h.call('GET', `/v1/incident_roles/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', '/v1/incident_roles/team-one-role', { principal: other })).status).toBe(404);
    expect((await h.call('PUT', `/v1/incident_roles/${id}`, { principal: other, body: body({ name: 'hijack' }) })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/incident_roles/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', `/v1/incident_roles/${randomUUID()}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/incident_roles/${id}`)).body.data.attributes.name).toBe('Team one role');
  });
});
