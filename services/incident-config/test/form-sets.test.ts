import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

type Res = { status: number; body: any };
const setBody = (attributes: Record<string, unknown>) => ({ data: { type: 'form_sets', attributes } });
const conditionBody = (attributes: Record<string, unknown>) => ({ data: { type: 'form_set_conditions', attributes } });
const createSet = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', '/v1/form_sets', { body: setBody(attributes), principal });
const createCondition = (setId: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', `/v1/form_sets/${setId}/conditions`, { body: conditionBody(attributes), principal });
const pointers = (res: Res) => res.body.errors.map((e: { source?: { pointer: string } }) => e.source?.pointer);
const ids = (res: Res) => res.body.data.map((r: { id: string }) => r.id);
const conditionsWhere = async (where: Record<string, unknown>) =>
  Number((await h.db.knex('form_set_conditions').where(where).count({ n: '*' }))[0].n);
const equal = { form_field_id: 'severity', comparison: 'equal', values: ['sev1'] };

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: '#' });
});

afterAll(async () => {
  await h?.close();
});

describe('form sets', () => {
  it('creates, gets by id and slug, updates with PUT, lists, filters and deletes, with events', async () => {
    const created = await createSet({ name: 'Security incidents', forms: ['web_new_incident_form', 'security-intake'] });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toEqual({
      name: 'Security incidents',
      slug: 'security-incidents',
      is_default: false,
      forms: ['web_new_incident_form', 'security-intake'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await h.call('GET', '/v1/form_sets/security-incidents')).body.data.id).toBe(id);
    const updated = await h.call('PUT', `/v1/form_sets/${id}`, { body: setBody({ forms: ['slack_new_incident_form'] }) });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'Security incidents', forms: ['slack_new_incident_form'] });
    expect((await h.call('PATCH', `/v1/form_sets/${id}`, { body: setBody({ name: 'x' }) })).status).toBe(404);

    expect(ids(await h.call('GET', '/v1/form_sets?filter[slug]=security-incidents'))).toEqual([id]);
    expect(ids(await h.call('GET', '/v1/form_sets?filter[is_default]=false'))).toContain(id);
    expect(ids(await h.call('GET', '/v1/form_sets?filter[is_default]=true'))).toEqual([]);
    const deleted = await h.call('DELETE', `/v1/form_sets/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'form_sets', attributes: { name: 'Security incidents' } });
    expect((await h.call('GET', `/v1/form_sets/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['form_set.created', 'form_set.updated', 'form_set.deleted']);
  });

  it.each([
    ['a missing name', { forms: [] }, '/data/attributes/name'],
    ['missing forms', { name: 'x' }, '/data/attributes/forms'],
    ['a form that is no slug', { name: 'x', forms: ['Not A Slug'] }, '/data/attributes/forms/0'],
    ['a form listed twice', { name: 'x', forms: ['a', 'a'] }, '/data/attributes/forms'],
    ['is_default (read-only)', { name: 'x', forms: [], is_default: true }, '/data/attributes/is_default'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const before = await h.db.knex('form_sets').count({ n: '*' });
    const res = await createSet(attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await h.db.knex('form_sets').count({ n: '*' })).toEqual(before);
  });

  it('refuses a duplicate name with 409', async () => {
    expect((await createSet({ name: 'Twice', forms: [] })).status).toBe(201);
    const dup = await createSet({ name: 'twice', forms: [] });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });
});

describe('form set conditions', () => {
  it('are created and listed under their set (by id or slug), read and changed by id, and go with their set', async () => {
    const set = (await createSet({ name: 'Conditional', forms: [] })).body.data;
    const created = await createCondition(set.id, equal);
    expect(created.status).toBe(201);
    const { id, attributes, relationships } = created.body.data;
    expect(attributes).toEqual({ form_set_id: set.id, ...equal });
    expect(relationships).toEqual({ form_set: { data: { id: set.id, type: 'form_sets' } } });
    const other = (
      await h.call('POST', '/v1/form_sets/conditional/conditions', {
        body: conditionBody({ form_field_id: 'service', comparison: 'equal', values: ['api', 'web'] }),
      })
    ).body.data;

    expect(ids(await h.call('GET', `/v1/form_sets/${set.id}/conditions`))).toEqual([id, other.id]);
    expect(ids(await h.call('GET', `/v1/form_sets/${set.id}/conditions?filter[form_field_id]=service`))).toEqual([other.id]);
    const got = await h.call('GET', `/v1/form_set_conditions/${id}?include=form_set`);
    expect(got.status).toBe(200);
    expect(got.body.included).toEqual([expect.objectContaining({ id: set.id, type: 'form_sets' })]);

    const updated = await h.call('PUT', `/v1/form_set_conditions/${id}`, { body: conditionBody({ values: ['sev0', 'sev1'] }) });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toEqual({
      form_set_id: set.id,
      form_field_id: 'severity',
      comparison: 'equal',
      values: ['sev0', 'sev1'],
    });
    const deleted = await h.call('DELETE', `/v1/form_set_conditions/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, attributes: { values: ['sev0', 'sev1'] } });
    expect((await h.call('GET', `/v1/form_set_conditions/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'form_set_condition.created',
      'form_set_condition.updated',
      'form_set_condition.deleted',
    ]);

    await h.call('DELETE', `/v1/form_sets/${set.id}`);
    expect((await h.call('GET', `/v1/form_set_conditions/${other.id}`)).status).toBe(404);
  });

  it.each([
    ['a missing form_field_id', { comparison: 'equal', values: [] }, '/data/attributes/form_field_id'],
    ['a missing comparison', { form_field_id: 'f', values: [] }, '/data/attributes/comparison'],
    ['missing values', { form_field_id: 'f', comparison: 'equal' }, '/data/attributes/values'],
    ['another comparison', { ...equal, comparison: 'not_equal' }, '/data/attributes/comparison'],
    ['a non-string value', { ...equal, values: [1] }, '/data/attributes/values/0'],
    ['a form_set_id in the body', { ...equal, form_set_id: '00000000-0000-4000-8000-000000000000' }, '/data/attributes/form_set_id'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const set = (await createSet({ name: `Refusing ${_name}`, forms: [] })).body.data;
    const res = await createCondition(set.id, attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await conditionsWhere({ form_set_id: set.id })).toBe(0);
  });

  it("answers 404 for another team's form set as the parent and for its conditions", async () => {
    const theirs = (await createSet({ name: 'Theirs', forms: [] }, { team_id: 81 })).body.data;
    const condition = (await createCondition(theirs.id, equal, { team_id: 81 })).body.data;
    const me = { team_id: 82 };
    expect((await createCondition(theirs.id, equal, me)).status).toBe(404);
    expect((await h.call('GET', `/v1/form_sets/${theirs.id}/conditions`, { principal: me })).status).toBe(404);
    expect((await h.call('GET', '/v1/form_sets/theirs/conditions', { principal: me })).status).toBe(404);
    expect((await h.call('GET', `/v1/form_set_conditions/${condition.id}`, { principal: me })).status).toBe(404);
    expect(
      (await h.call('PUT', `/v1/form_set_conditions/${condition.id}`, { body: conditionBody({ values: [] }), principal: me })).status,
    ).toBe(404);
    expect((await h.call('DELETE', `/v1/form_set_conditions/${condition.id}`, { principal: me })).status).toBe(404);
    expect((await h.call('GET', `/v1/form_sets/${theirs.id}`, { principal: me })).status).toBe(404);
    expect((await h.call('GET', '/v1/form_sets/not-a-set/conditions')).status).toBe(404);
    expect(await conditionsWhere({ team_id: 82 })).toBe(0);
  });
});
