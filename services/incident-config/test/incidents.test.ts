import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'incident.*' });
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
const type = 'incidents';
const create = (attributes: Attrs, principal?: Attrs) =>
  h.call('POST', '/v1/incidents', { body: { data: { type, attributes } }, principal });
const act = (id: string, action: string, attributes?: Attrs, principal?: Attrs) =>
  h.call('PUT', `/v1/incidents/${id}/${action}`, { body: { data: { type, ...(attributes ? { attributes } : {}) } }, principal });
const make = async (name: string, attributes: Attrs, principal?: Attrs) =>
  (await h.call('POST', `/v1/${name}`, { body: { data: { type: name, attributes } }, principal })).body.data.id as string;
const pointers = (res: { body: { errors: { source?: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);

describe('private incidents', () => {
  const alice = { user_id: 41, role: 'user' };
  const bob = { user_id: 42, role: 'user' };
  const teamKey = { user_id: null, role: 'user' };

  it('are seen and changed by their creator and the admins only; the others find neither them nor their timeline', async () => {
    const created = await create({ title: 'Payroll leak', private: true }, alice);
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    const event = await h.call('POST', `/v1/incidents/${id}/events`, {
      body: { data: { type: 'incident_events', attributes: { event: 'found it' } } },
      principal: alice,
    });
    expect(event.status).toBe(201);
    const listed = async (principal: Attrs) =>
      ((await h.call('GET', '/v1/incidents?filter[search]=Payroll', { principal })).body.data as { id: string }[]).map((r) => r.id);

    for (const stranger of [bob, teamKey]) {
      expect((await h.call('GET', `/v1/incidents/${id}`, { principal: stranger })).status).toBe(404);
      expect(await listed(stranger)).toEqual([]);
      expect((await act(id, 'mitigate', undefined, stranger)).status).toBe(404);
      expect((await h.call('GET', `/v1/incidents/${id}/events`, { principal: stranger })).status).toBe(404);
      expect((await h.call('GET', `/v1/events/${event.body.data.id}`, { principal: stranger })).status).toBe(404);
      expect((await h.call('DELETE', `/v1/incidents/${id}`, { principal: stranger })).status).toBe(404);
    }
    expect(await listed(alice)).toEqual([id]);
    expect(await listed({ user_id: 7, role: 'admin' })).toEqual([id]);
    expect((await act(id, 'mitigate', undefined, alice)).body.data.attributes.status).toBe('mitigated');

    // A public incident made private by someone else is then hidden from them too: it is its creator's.
    const open = (await create({ title: 'Payroll open' }, alice)).body.data.id as string;
    expect((await h.call('GET', `/v1/incidents/${open}`, { principal: bob })).status).toBe(200);
    expect(
      (await h.call('PUT', `/v1/incidents/${open}`, { body: { data: { type, attributes: { private: true } } }, principal: bob })).status,
    ).toBe(200);
    expect((await h.call('GET', `/v1/incidents/${open}`, { principal: bob })).status).toBe(404);
    expect((await h.call('GET', `/v1/incidents/${open}`, { principal: alice })).status).toBe(200);
  });
});

describe('incidents', () => {
  it('creates started with defaults, gets by id and slug, updates with PUT, deletes answering the record', async () => {
    const created = await create({ title: 'Checkout is down', summary: 'Payments fail', labels: { platform: 'web' } });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      title: 'Checkout is down',
      slug: 'checkout-is-down',
      kind: 'normal',
      status: 'started',
      private: false,
      summary: 'Payments fail',
      severity_id: null,
      service_ids: [],
      environment_ids: [],
      functionality_ids: [],
      labels: { platform: 'web' },
      in_triage_at: null,
      mitigated_at: null,
      resolved_at: null,
      cancelled_at: null,
    });
    expect(Date.parse(attributes.started_at)).not.toBeNaN();
    expect((await h.call('GET', '/v1/incidents/checkout-is-down')).body.data.id).toBe(id);

    const updated = await h.call('PUT', `/v1/incidents/${id}`, {
      body: { data: { id, type, attributes: { summary: null, kind: 'test', private: true } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ title: 'Checkout is down', summary: null, kind: 'test', private: true });
    expect((await h.call('PATCH', `/v1/incidents/${id}`, { body: { data: { type, attributes: { title: 'x' } } } })).status).toBe(404);

    const deleted = await h.call('DELETE', `/v1/incidents/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type, attributes: { kind: 'test' } });
    expect((await h.call('GET', `/v1/incidents/${id}`)).status).toBe(404);
  });

  it('generates a title when none is given, and starts in triage when asked', async () => {
    const res = await create({ status: 'in_triage' });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ title: 'Untitled incident', status: 'in_triage', started_at: null });
    expect(Date.parse(res.body.data.attributes.in_triage_at)).not.toBeNaN();
  });

  it.each([
    ['an unknown kind', { kind: 'urgent' }, '/data/attributes/kind'],
    ['a status only the actions reach', { status: 'resolved' }, '/data/attributes/status'],
    ['a timestamp the actions set', { resolved_at: '2026-01-01T00:00:00Z' }, '/data/attributes/resolved_at'],
    ['a service id that is no uuid', { service_ids: ['checkout'] }, '/data/attributes/service_ids/0'],
    ['an empty title', { title: ' ' }, '/data/attributes/title'],
    ['a severity id that is no uuid', { severity_id: 'sev1' }, '/data/attributes/severity_id'],
  ])('refuses %s with a 422 and writes nothing', async (_case, attributes, pointer) => {
    const before = await h.db.knex('incidents').count({ n: '*' });
    const res = await create(attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await h.db.knex('incidents').count({ n: '*' })).toEqual(before);
  });

  it('links services, environments and functionalities of the team only, naming the id that is not', async () => {
    const service = await make('services', { name: 'Incident checkout' });
    const environment = await make('environments', { name: 'Incident production' });
    const functionality = await make('functionalities', { name: 'Incident paying' });
    const theirs = await make('functionalities', { name: 'Their paying' }, { team_id: 2 });
    const ok = await create({
      title: 'Linked',
      service_ids: [service.toUpperCase()],
      environment_ids: [environment],
      functionality_ids: [functionality],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.attributes).toMatchObject({
      service_ids: [service],
      environment_ids: [environment],
      functionality_ids: [functionality],
    });
    expect(ok.body.data.relationships.services.data).toEqual([{ id: service, type: 'services' }]);
    const got = await h.call('GET', `/v1/incidents/${ok.body.data.id}?include=services,functionalities`);
    expect(got.body.included.map((r: { id: string }) => r.id).sort()).toEqual([service, functionality].sort());

    const bad = await h.call('PUT', `/v1/incidents/${ok.body.data.id}`, {
      body: { data: { type, attributes: { functionality_ids: [functionality, theirs] } } },
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual(['/data/attributes/functionality_ids/1']);
    expect((await h.call('GET', `/v1/incidents/${ok.body.data.id}`)).body.data.attributes.functionality_ids).toEqual([functionality]);
  });

  it('authorizes an include as a read of the related resource: without its scope, the 403 a direct read gets', async () => {
    const service = await make('services', { name: 'Included checkout' });
    const linked = (await create({ title: 'Include scope', service_ids: [service] })).body.data.id as string;
    const bare = (await create({ title: 'Include scope, nothing linked' })).body.data.id as string;
    const token = (scopes: string[]) => ({ role: 'user', credential: { type: 'oauth', client_id: 'c1' }, scopes });
    const incidentsOnly = token(['ir.incidents:read']);

    const direct = await h.call('GET', `/v1/services/${service}`, { principal: incidentsOnly });
    expect(direct.status).toBe(403);
    expect((await h.call('GET', `/v1/incidents/${linked}`, { principal: incidentsOnly })).status).toBe(200);
    for (const path of [
      `/v1/incidents/${linked}?include=services`,
      `/v1/incidents/${bare}?include=services`,
      '/v1/incidents?include=services',
    ]) {
      const res = await h.call('GET', path, { principal: incidentsOnly });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ code: 'insufficient_scope', detail: direct.body.errors[0].detail });
      expect(res.body.errors[0].detail).toContain('ir.services:read');
    }
    const both = await h.call('GET', `/v1/incidents/${linked}?include=services`, {
      principal: token(['ir.incidents:read', 'ir.services:read']),
    });
    expect(both.status).toBe(200);
    expect(both.body.included.map((r: { id: string }) => r.id)).toEqual([service]);
  });

  it('a private incident stays private', async () => {
    const { id } = (await create({ title: 'Secret outage', private: true })).body.data;
    const res = await h.call('PUT', `/v1/incidents/${id}`, { body: { data: { type, attributes: { private: false } } } });
    expect(res.status).toBe(422);
    expect(pointers(res)).toEqual(['/data/attributes/private']);
  });

  it('moves through triage, mitigation and resolution, each with its timestamp and event', async () => {
    const { id } = (await create({ title: 'Lifecycle' })).body.data;
    const triaged = await act(id, 'in_triage');
    expect(triaged.status).toBe(200);
    expect(triaged.body.data.attributes.status).toBe('in_triage');
    const mitigated = await act(id, 'mitigate', { mitigation_message: 'Rolled back' });
    expect(mitigated.status).toBe(200);
    expect(mitigated.body.data.attributes).toMatchObject({ status: 'mitigated', mitigation_message: 'Rolled back' });
    const resolved = await act(id, 'resolve', { resolution_message: 'Fixed' });
    expect(resolved.body.data.attributes).toMatchObject({
      status: 'resolved',
      resolution_message: 'Fixed',
      mitigated_at: mitigated.body.data.attributes.mitigated_at,
    });
    expect(Date.parse(resolved.body.data.attributes.resolved_at)).not.toBeNaN();
    const restarted = await act(id, 'restart');
    expect(restarted.body.data.attributes).toMatchObject({ status: 'started', resolved_at: null, mitigated_at: null });
    const cancelled = await act(id, 'cancel', { cancellation_message: 'False alarm' });
    expect(cancelled.body.data.attributes).toMatchObject({ status: 'cancelled', cancellation_message: 'False alarm' });

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 6);
    expect(mine().map((e) => e.routingKey)).toEqual([
      'incident.created',
      'incident.in_triage',
      'incident.mitigated',
      'incident.resolved',
      'incident.restarted',
      'incident.cancelled',
    ]);
    expect((mine()[3]!.body.data as { attributes: Attrs }).attributes.status).toBe('resolved');
  });

  it('refuses a transition that makes no sense with a 422 that says why, changing nothing', async () => {
    const { id } = (await create({ title: 'Cancelled early' })).body.data;
    await act(id, 'cancel');
    const before = (await h.call('GET', `/v1/incidents/${id}`)).body.data;
    const res = await act(id, 'resolve', { resolution_message: 'too late' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ detail: 'A cancelled incident cannot be resolved.', source: { pointer: '/data' } });
    expect((await h.call('GET', `/v1/incidents/${id}`)).body.data).toEqual(before);
  });

  it('refuses an action body of another shape with a 422 at its pointer', async () => {
    const { id } = (await create({ title: 'Bodies' })).body.data;
    const res = await act(id, 'mitigate', { resolution_message: 'wrong action' });
    expect(res.status).toBe(422);
    expect(pointers(res)[0]).toMatch(/^\/data\/attributes/);
    expect((await act(id, 'in_triage', { note: 'x' })).status).toBe(422);
  });

  it.each([
    ['no body', undefined],
    ['no data', { type }],
    ['another type', { data: { type: 'incident_events' } }],
    ['attributes of another shape', { data: { type, attributes: [] } }],
  ])('refuses an action with %s with a 4xx, changing nothing', async (_case, body) => {
    const { id } = (await create({ title: `Action body ${_case}` })).body.data;
    const res = await h.call('PUT', `/v1/incidents/${id}/resolve`, {
      body: body ?? '',
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await h.call('GET', `/v1/incidents/${id}`)).body.data.attributes.status).toBe('started');
  });

  it.each(['filter[created_at][gte]=yesterday', 'filter[private]=maybe', 'sort=title', 'filter[labels]=x', 'page[size]=0'])(
    'refuses the list query %s with a 400',
    async (query) => {
      expect((await h.call('GET', `/v1/incidents?${query}`)).status).toBe(400);
    },
  );

  it("answers 404 for another team's incident on every operation and action", async () => {
    const { id } = (await create({ title: 'Theirs' }, { team_id: 2 })).body.data;
    expect((await h.call('GET', `/v1/incidents/${id}`)).status).toBe(404);
    expect((await h.call('PUT', `/v1/incidents/${id}`, { body: { data: { type, attributes: { title: 'Mine' } } } })).status).toBe(404);
    expect((await act(id, 'mitigate', {})).status).toBe(404);
    expect((await h.call('DELETE', `/v1/incidents/${id}`)).status).toBe(404);
    expect((await h.call('GET', '/v1/incidents/not-a-uuid-or-slug!')).status).toBe(404);
    expect((await h.call('GET', `/v1/incidents/${id}`, { principal: { team_id: 2 } })).body.data.attributes.status).toBe('started');
  });

  it('lists with filters and sort', async () => {
    const team = { team_id: 3 };
    const a = (await create({ title: 'Filter A', kind: 'test' }, team)).body.data.id;
    const b = (await create({ title: 'Filter B', private: true }, team)).body.data.id;
    await act(b, 'mitigate', {}, team);
    const list = async (query: string) =>
      (await h.call('GET', `/v1/incidents?${query}`, { principal: team })).body.data.map((r: { id: string }) => r.id);
    expect(await list('filter[kind]=test')).toEqual([a]);
    expect(await list('filter[status]=mitigated')).toEqual([b]);
    expect(await list('filter[status][in]=started,mitigated&sort=created_at')).toEqual([a, b]);
    expect(await list('filter[private]=true')).toEqual([b]);
    expect(await list('filter[search]=filter b')).toEqual([b]);
    expect(await list('filter[mitigated_at][gte]=2000-01-01T00:00:00Z')).toEqual([b]);
    expect(await list('sort=-created_at')).toEqual([b, a]);
    expect((await h.call('GET', '/v1/incidents?filter[status][gt]=x', { principal: team })).status).toBe(400);
  });

  it("takes the id of one of the team's severities and filters by it", async () => {
    const team = { team_id: 5 };
    const severity = (await h.call('GET', '/v1/severities/sev1', { principal: team })).body.data.id as string;
    const created = await create({ title: 'Severe', severity_id: severity.toUpperCase() }, team);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.severity_id).toBe(severity);
    const listed = (await h.call('GET', `/v1/incidents?filter[severity_id]=${severity}`, { principal: team })).body.data;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([created.body.data.id]);
  });

  it('filters by the records an incident names: any of the ids, or none of them', async () => {
    const team = { team_id: 4 };
    const [api, db] = [await make('services', { name: 'API' }, team), await make('services', { name: 'DB' }, team)];
    const prod = await make('environments', { name: 'Production' }, team);
    const both = (await create({ title: 'Both', service_ids: [api, db], environment_ids: [prod] }, team)).body.data.id;
    const apiOnly = (await create({ title: 'API only', service_ids: [api] }, team)).body.data.id;
    const none = (await create({ title: 'None' }, team)).body.data.id;
    const list = async (query: string) =>
      (await h.call('GET', `/v1/incidents?${query}&sort=created_at`, { principal: team })).body.data.map((r: { id: string }) => r.id);
    expect(await list(`filter[service_ids]=${db}`)).toEqual([both]);
    expect(await list(`filter[service_ids]=${db.toUpperCase()},${api}`)).toEqual([both, apiOnly]);
    expect(await list(`filter[service_ids][in]=${api}`)).toEqual([both, apiOnly]);
    expect(await list(`filter[service_ids][not_eq]=${db}`)).toEqual([apiOnly, none]);
    expect(await list(`filter[service_ids][not_in]=${api},${db}`)).toEqual([none]);
    expect(await list(`filter[environment_ids]=${prod}&filter[service_ids]=${api}`)).toEqual([both]);
    expect(await list(`filter[functionality_ids]=${randomUUID()}`)).toEqual([]);
    const bad = await h.call('GET', '/v1/incidents?filter[service_ids]=api', { principal: team });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('filter[service_ids]');
  });

  it("filters by the slugs of the records an incident names, the team's own only", async () => {
    const team = { team_id: 6 };
    const other = { team_id: 7 };
    const sev0 = (await h.call('GET', '/v1/severities/sev0', { principal: team })).body.data.id as string;
    const [api, db] = [await make('services', { name: 'API' }, team), await make('services', { name: 'DB' }, team)];
    const outage = await make('incident_types', { name: 'Outage' }, team);
    const prod = await make('environments', { name: 'Production' }, team);
    const checkout = await make('functionalities', { name: 'Checkout' }, team);
    const severe = (await create({ title: 'Severe', severity_id: sev0, service_ids: [api, db], incident_type_ids: [outage] }, team)).body
      .data.id;
    const named = (await create({ title: 'Named', service_ids: [db], environment_ids: [prod], functionality_ids: [checkout] }, team)).body
      .data.id;
    const bare = (await create({ title: 'Bare' }, team)).body.data.id;
    // Another team's records of the same slugs name nothing here.
    await make('services', { name: 'API' }, other);
    await create({ title: 'Theirs', service_ids: [await make('services', { name: 'Web' }, other)] }, other);
    const list = async (query: string, principal = team) =>
      (await h.call('GET', `/v1/incidents?${query}&sort=created_at`, { principal })).body.data.map((r: { id: string }) => r.id);
    expect(await list('filter[severity]=sev0')).toEqual([severe]);
    expect(await list('filter[severity]=SEV0')).toEqual([severe]);
    expect(await list('filter[severity][in]=sev0,sev1')).toEqual([severe]);
    expect(await list('filter[severity][not_eq]=sev0')).toEqual([named, bare]);
    expect(await list('filter[types]=outage')).toEqual([severe]);
    expect(await list('filter[types][not_in]=outage')).toEqual([named, bare]);
    expect(await list('filter[services]=db')).toEqual([severe, named]);
    expect(await list('filter[services][in]=api,web')).toEqual([severe]);
    expect(await list('filter[services][not_eq]=api')).toEqual([named, bare]);
    expect(await list('filter[environments]=production&filter[functionalities]=checkout')).toEqual([named]);
    expect(await list('filter[services]=nothing-of-that-name')).toEqual([]);
    expect(await list('filter[services]=api', other)).toEqual([]);
    expect((await h.call('GET', '/v1/incidents?filter[teams]=ops', { principal: team })).status).toBe(400);
    expect((await h.call('GET', '/v1/incidents?filter[severity][gt]=sev0', { principal: team })).status).toBe(400);
  });
});
