import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

type Res = { status: number; body: any };
type Principal = Record<string, unknown>;
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const post = (path: string, type: string, attributes: Record<string, unknown>, principal: Principal) =>
  h.call('POST', path, { body: doc(type, attributes), principal });
const make = async (path: string, type: string, attributes: Record<string, unknown>, principal: Principal): Promise<string> => {
  const res = await post(path, type, attributes, principal);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
};
const incidentType = (name: string, principal: Principal, more: Record<string, unknown> = {}) =>
  make('/v1/incident_types', 'incident_types', { name, ...more }, principal);
const severityId = async (slug: string, principal: Principal) =>
  (await h.call('GET', `/v1/severities/${slug}`, { principal })).body.data.id as string;
const refusal = (res: Res) => [
  res.status,
  res.body.errors?.map((e: { code: string; source?: { pointer: string } }) => [e.code, e.source?.pointer]),
];
let teams = 500;
const freshTeam = () => ({ team_id: ++teams });

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'incident_type.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('incident types', () => {
  it('creates, lists in position order, reads by slug, updates with PUT only and deletes, announcing each', async () => {
    const team = freshTeam();
    expect((await h.call('GET', '/v1/incident_types', { principal: team })).body.data).toEqual([]);
    const created = await post(
      '/v1/incident_types',
      'incident_types',
      { name: 'Security', color: '#00FF00', notify_emails: ['sec@example.com'], chat_aliases: [{ id: 'S1', name: 'sec' }] },
      team,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toEqual({
      name: 'Security',
      slug: 'security',
      description: null,
      color: '#00FF00',
      // The kit's position: one past the team's highest, 1 for the first.
      position: 1,
      notify_emails: ['sec@example.com'],
      chat_channels: [],
      chat_aliases: [{ id: 'S1', name: 'sec' }],
      properties: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.data.id;
    await incidentType('Availability', team, { position: 0 });
    const listed = (await h.call('GET', '/v1/incident_types?sort=position,name', { principal: team })).body.data;
    expect(listed.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['Availability', 'Security']);
    expect((await h.call('GET', '/v1/incident_types?filter[name]=security', { principal: team })).body.data).toHaveLength(1);
    expect((await h.call('GET', '/v1/incident_types/security', { principal: team })).body.data.id).toBe(id);
    const put = await h.call('PUT', `/v1/incident_types/${id}`, {
      body: doc('incident_types', { description: 'Breaches' }),
      principal: team,
    });
    expect([put.status, put.body.data.attributes.description]).toEqual([200, 'Breaches']);
    expect(
      (await h.call('PATCH', `/v1/incident_types/${id}`, { body: doc('incident_types', { name: 'x' }), principal: team })).status,
    ).toBe(404);
    expect((await h.call('DELETE', `/v1/incident_types/${id}`, { principal: team })).status).toBe(200);
    await h.events!.waitFor((es) => es.some((e) => e.routingKey === 'incident_type.deleted' && (e.body.data as { id: string }).id === id));
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey);
    expect(mine).toEqual(['incident_type.created', 'incident_type.updated', 'incident_type.deleted']);
  });

  it('holds values of the incident types catalog, served at /v1/incident_types/properties', async () => {
    const team = freshTeam();
    const property = await make('/v1/incident_types/properties', 'catalog_properties', { name: 'Owner' }, team);
    const other = await make('/v1/services/properties', 'catalog_properties', { name: 'Tier' }, team);
    const read = (await h.call('GET', `/v1/catalog_properties/${property}`, { principal: team })).body.data.attributes;
    expect(read).toMatchObject({ catalog_type: 'incident_type', catalog_id: expect.any(String) });
    const typed = await incidentType('Data loss', team, { properties: [{ catalog_property_id: property, value: 'storage' }] });
    const wrong = await post(
      '/v1/incident_types',
      'incident_types',
      { name: 'Bad', properties: [{ catalog_property_id: other, value: 'x' }] },
      team,
    );
    expect(refusal(wrong)).toEqual([422, [['invalid_reference', '/data/attributes/properties/0/catalog_property_id']]]);
    // Deleting the property takes its values off the incident types.
    expect((await h.call('DELETE', `/v1/catalog_properties/${property}`, { principal: team })).status).toBe(200);
    expect((await h.call('GET', `/v1/incident_types/${typed}`, { principal: team })).body.data.attributes.properties).toEqual([]);
    const names = (await h.call('GET', '/v1/incident_types/properties', { principal: team })).body.data;
    expect(names).toEqual([]);
  });

  it("refuses bad attributes with pointers, a taken name with 409, and another team's id with 404", async () => {
    const team = freshTeam();
    const bad = await post('/v1/incident_types', 'incident_types', { name: '', color: 'green', position: -1 }, team);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/color',
      '/data/attributes/name',
      '/data/attributes/position',
    ]);
    await incidentType('Latency', team);
    expect(refusal(await post('/v1/incident_types', 'incident_types', { name: 'LATENCY' }, team))).toEqual([
      409,
      [['already_exists', '/data/attributes/name']],
    ]);
    const theirs = await incidentType('Theirs', freshTeam());
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await h.call(method, `/v1/incident_types/${theirs}`, { principal: team })).status).toBe(404);
    }
    expect(
      (await h.call('PUT', `/v1/incident_types/${theirs}`, { body: doc('incident_types', { name: 'Mine' }), principal: team })).status,
    ).toBe(404);
  });
});

describe('incidents and retrospective processes naming severities and incident types', () => {
  it('takes only severities and incident types of the team, and includes the types', async () => {
    const team = freshTeam();
    const outage = await incidentType('Outage', team);
    const theirs = await incidentType('Outage', freshTeam());
    const sev1 = await severityId('sev1', team);
    const created = await post('/v1/incidents', 'incidents', { title: 'Down', severity_id: sev1, incident_type_ids: [outage] }, team);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ severity_id: sev1, incident_type_ids: [outage] });
    const included = await h.call('GET', `/v1/incidents/${created.body.data.id}?include=incident_types`, { principal: team });
    expect(included.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([['incident_types', outage]]);
    expect((await h.call('GET', `/v1/incidents?filter[type_ids]=${outage}`, { principal: team })).body.data).toHaveLength(1);

    const otherSeverity = await severityId('sev1', freshTeam());
    for (const [attributes, pointer] of [
      [{ severity_id: randomUUID() }, '/data/attributes/severity_id'],
      [{ severity_id: otherSeverity }, '/data/attributes/severity_id'],
      [{ incident_type_ids: [outage, theirs] }, '/data/attributes/incident_type_ids/1'],
    ] as const) {
      expect(refusal(await post('/v1/incidents', 'incidents', { title: 'Bad', ...attributes }, team))).toEqual([
        422,
        [['invalid_reference', pointer]],
      ]);
    }
    const criteria = (c: Record<string, unknown>) => ({
      name: `P ${randomUUID()}`,
      copy_from: 'starter_template',
      retrospective_process_matching_criteria: c,
    });
    expect(
      refusal(
        await post('/v1/retrospective_processes', 'retrospective_processes', criteria({ severity_ids: [sev1, otherSeverity] }), team),
      ),
    ).toEqual([422, [['invalid_reference', '/data/attributes/retrospective_process_matching_criteria/severity_ids/1']]]);
    expect(
      refusal(await post('/v1/retrospective_processes', 'retrospective_processes', criteria({ incident_type_ids: ['sev1'] }), team)),
    ).toEqual([422, [['invalid_reference', '/data/attributes/retrospective_process_matching_criteria/incident_type_ids/0']]]);
    const bySeverity = await make('/v1/retrospective_processes', 'retrospective_processes', criteria({ severity_ids: [sev1] }), team);
    const withSeverities = await h.call('GET', `/v1/retrospective_processes/${bySeverity}?include=severities,incident_types`, {
      principal: team,
    });
    expect(withSeverities.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([['severities', sev1]]);
    const readOnly = { ...team, scopes: ['ir.retrospectives:read'] };
    expect((await h.call('GET', `/v1/retrospective_processes/${bySeverity}?include=severities`, { principal: readOnly })).status).toBe(403);
    const upper = await post(
      '/v1/retrospective_processes',
      'retrospective_processes',
      criteria({ incident_type_ids: [outage.toUpperCase()] }),
      team,
    );
    expect([upper.status, upper.body.data.attributes.retrospective_process_matching_criteria]).toEqual([
      201,
      { incident_type_ids: [outage] },
    ]);
  });

  it("judges a fresh team's first incident naming a severity against its starting set", async () => {
    const team = freshTeam();
    // Seeded in the incident's transaction, which the 422 rolls back: the next request seeds, once.
    const res = await post('/v1/incidents', 'incidents', { title: 'First', severity_id: randomUUID() }, team);
    expect(refusal(res)).toEqual([422, [['invalid_reference', '/data/attributes/severity_id']]]);
    const sev2 = await severityId('sev2', team);
    expect((await post('/v1/incidents', 'incidents', { title: 'Second', severity_id: sev2 }, team)).status).toBe(201);
    expect(await h.db.knex('severities').where({ team_id: team.team_id }).pluck('slug')).toHaveLength(4);
  });

  it('refuses to delete a severity or incident type in use, naming its users, and changes nothing', async () => {
    const team = freshTeam();
    const sev0 = await severityId('sev0', team);
    const type = await incidentType('Fraud', team);
    for (let i = 0; i < 2; i++)
      await make('/v1/incidents', 'incidents', { title: `Fraud ${i}`, severity_id: sev0, incident_type_ids: [type] }, team);
    await make(
      '/v1/retrospective_processes',
      'retrospective_processes',
      { name: 'Critical review', copy_from: 'starter_template', retrospective_process_matching_criteria: { severity_ids: [sev0] } },
      team,
    );
    const severity = await h.call('DELETE', `/v1/severities/${sev0}`, { principal: team });
    expect(refusal(severity)).toEqual([422, [['in_use', '/data']]]);
    expect(severity.body.errors[0].detail).toBe(
      'This severity is in use by 2 incidents and the retrospective process "Critical review"; change those first.',
    );
    const typed = await h.call('DELETE', `/v1/incident_types/${type}`, { principal: team });
    expect(refusal(typed)).toEqual([422, [['in_use', '/data']]]);
    expect(typed.body.errors[0].detail).toBe('This incident type is in use by 2 incidents; change those first.');
    expect((await h.call('GET', `/v1/severities/${sev0}`, { principal: team })).status).toBe(200);
    expect((await h.call('GET', `/v1/incident_types/${type}`, { principal: team })).status).toBe(200);

    // Once nothing names them, they go.
    const incidents = (await h.call('GET', '/v1/incidents', { principal: team })).body.data;
    for (const incident of incidents)
      await h.call('PUT', `/v1/incidents/${incident.id}`, {
        body: doc('incidents', { severity_id: null, incident_type_ids: [] }),
        principal: team,
      });
    const process = (await h.call('GET', '/v1/retrospective_processes?filter[name]=Critical review', { principal: team })).body.data[0].id;
    expect((await h.call('DELETE', `/v1/retrospective_processes/${process}`, { principal: team })).status).toBe(200);
    expect((await h.call('DELETE', `/v1/severities/${sev0}`, { principal: team })).status).toBe(200);
    expect((await h.call('DELETE', `/v1/incident_types/${type}`, { principal: team })).status).toBe(200);
  });

  it('counts only the incidents the caller sees, and names the private others without a number', async () => {
    const team = freshTeam();
    const [alice, bob, admin] = [
      { ...team, user_id: 61, role: 'user' },
      { ...team, user_id: 62, role: 'user' },
      { ...team, user_id: 63, role: 'admin' },
    ];
    const sev1 = await severityId('sev1', team);
    await make('/v1/incidents', 'incidents', { title: 'Secret', severity_id: sev1, private: true }, alice);
    await make('/v1/incidents', 'incidents', { title: 'Secret too', severity_id: sev1, private: true }, alice);
    await make('/v1/incidents', 'incidents', { title: 'Open', severity_id: sev1 }, bob);
    // Not an admin, so Bob sees the open incident only; the private ones still keep the severity.
    const asUser = await h.call('DELETE', `/v1/severities/${sev1}`, { principal: bob });
    expect(refusal(asUser)).toEqual([422, [['in_use', '/data']]]);
    expect(asUser.body.errors[0].detail).toBe('This severity is in use by 1 incident and incidents you cannot see; change those first.');
    expect((await h.call('DELETE', `/v1/severities/${sev1}`, { principal: admin })).body.errors[0].detail).toBe(
      'This severity is in use by 3 incidents; change those first.',
    );
  });

  it('tells a record-scoped key neither the number of incidents nor the names of processes it does not list', async () => {
    const team = freshTeam();
    const sev2 = await severityId('sev2', team);
    const listed = await make('/v1/incidents', 'incidents', { title: 'Listed', severity_id: sev2 }, team);
    await make('/v1/incidents', 'incidents', { title: 'Unlisted', severity_id: sev2 }, team);
    await make(
      '/v1/retrospective_processes',
      'retrospective_processes',
      { name: 'Secret review', copy_from: 'starter_template', retrospective_process_matching_criteria: { severity_ids: [sev2] } },
      team,
    );
    const onlySeverity = await h.call('DELETE', `/v1/severities/${sev2}`, { principal: { ...team, record_ids: [sev2] } });
    expect(refusal(onlySeverity)).toEqual([422, [['in_use', '/data']]]);
    expect(onlySeverity.body.errors[0].detail).toBe(
      'This severity is in use by incidents you cannot see and retrospective processes you cannot see; change those first.',
    );
    const withIncident = await h.call('DELETE', `/v1/severities/${sev2}`, { principal: { ...team, record_ids: [sev2, listed] } });
    expect(withIncident.body.errors[0].detail).toBe(
      'This severity is in use by 1 incident and incidents you cannot see and retrospective processes you cannot see; change those first.',
    );
  });

  it('tells a token without the incidents or retrospectives scope neither the number of incidents nor the names of processes', async () => {
    const team = freshTeam();
    const sev3 = await severityId('sev3', team);
    const type = await incidentType('Outage', team);
    await make('/v1/incidents', 'incidents', { title: 'Scoped', severity_id: sev3, incident_type_ids: [type] }, team);
    await make(
      '/v1/retrospective_processes',
      'retrospective_processes',
      { name: 'Hidden review', copy_from: 'starter_template', retrospective_process_matching_criteria: { severity_ids: [sev3] } },
      team,
    );
    const scopes = ['ir.severities:write', 'ir.incident_types:write'];
    const severity = await h.call('DELETE', `/v1/severities/${sev3}`, { principal: { ...team, scopes } });
    expect(refusal(severity)).toEqual([422, [['in_use', '/data']]]);
    expect(severity.body.errors[0].detail).toBe(
      'This severity is in use by incidents you cannot see and retrospective processes you cannot see; change those first.',
    );
    const typed = await h.call('DELETE', `/v1/incident_types/${type}`, { principal: { ...team, scopes } });
    expect(typed.body.errors[0].detail).toBe('This incident type is in use by incidents you cannot see; change those first.');
    // With the scopes to read them, the count and the name.
    const reading = [...scopes, 'ir.incidents:read', 'ir.retrospectives:read'];
    expect((await h.call('DELETE', `/v1/severities/${sev3}`, { principal: { ...team, scopes: reading } })).body.errors[0].detail).toBe(
      'This severity is in use by 1 incident and the retrospective process "Hidden review"; change those first.',
    );
  });
});
