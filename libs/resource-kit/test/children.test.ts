import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_children');
});
afterAll(async () => {
  await kit?.close();
});

const rule = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'rules', ...(id ? { id } : {}), attributes } });
const c = (field: string, values: string[], id?: string) => ({ ...(id ? { id } : {}), field, operator: 'is', values });

describe('children replaced as a set', () => {
  it('keeps the ids of unchanged entries, updates those named by id, inserts and deletes the rest', async () => {
    const created = await kit.call(
      'POST',
      '/v1/rules',
      rule({ name: 'r', conditions: [c('urgency', ['high']), c('source', ['api']), c('service', ['db'])] }),
    );
    expect(created.status).toBe(201);
    const [urgency, source, service] = created.body.data.attributes.conditions;
    expect(urgency).toEqual({ id: expect.any(String), field: 'urgency', operator: 'is', values: ['high'] });

    const put = await kit.call(
      'PUT',
      `/v1/rules/${created.body.data.id}`,
      rule({
        conditions: [c('source', ['api']), c('urgency', ['low'], urgency.id), c('group', ['g1'])],
      }),
    );
    expect(put.status).toBe(200);
    const after = put.body.data.attributes.conditions as any[];
    expect(after).toHaveLength(3);
    expect(after.find((x) => x.field === 'source').id).toBe(source.id);
    expect(after.find((x) => x.field === 'urgency')).toEqual({ ...urgency, values: ['low'] });
    expect(after.find((x) => x.field === 'group').id).not.toEqual(
      expect.stringMatching(new RegExp(`${service.id}|${source.id}|${urgency.id}`)),
    );
    expect(await kit.db.knex('rule_conditions').where({ id: service.id })).toHaveLength(0);
    const updated = (await kit.events()).filter((e) => e.type === 'rule.updated').at(-1);
    expect(updated?.data.attributes.conditions).toEqual(after);
  });

  it('leaves the set alone when the attribute is not sent, and refuses an id of another rule with nothing changed', async () => {
    const a = (await kit.call('POST', '/v1/rules', rule({ name: 'a', conditions: [c('f', ['1'])] }))).body.data;
    const b = (await kit.call('POST', '/v1/rules', rule({ name: 'b', conditions: [c('g', ['2'])] }))).body.data;
    const renamed = await kit.call('PUT', `/v1/rules/${a.id}`, rule({ name: 'a2' }, a.id));
    expect(renamed.body.data.attributes.conditions).toEqual(a.attributes.conditions);
    const foreign = b.attributes.conditions[0].id;
    const own = a.attributes.conditions[0].id.toUpperCase();
    expect(
      (await kit.call('PUT', `/v1/rules/${a.id}`, rule({ name: 'a2', conditions: [c('f', ['1'], own)] }))).body.data.attributes
        .conditions[0].id,
    ).toBe(a.attributes.conditions[0].id);
    const refused = await kit.call('PUT', `/v1/rules/${a.id}`, rule({ name: 'a3', conditions: [c('g', ['2'], foreign)] }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].source.pointer).toBe('/data/attributes/conditions/0/id');
    expect((await kit.call('GET', `/v1/rules/${a.id}`)).body.data.attributes).toMatchObject({
      name: 'a2',
      conditions: a.attributes.conditions,
    });
  });

  it('lets prepare map a legacy attribute onto the existing children before they are written', async () => {
    const r = (await kit.call('POST', '/v1/rules', rule({ name: 'legacy', conditions: [c('source', ['api'])] }))).body.data;
    const [source] = r.attributes.conditions;
    const on = await kit.call('PUT', `/v1/rules/${r.id}`, rule({ urgent_only: true }));
    expect(on.body.data.attributes.conditions).toEqual([
      source,
      { id: expect.any(String), field: 'urgency', operator: 'is', values: ['high'] },
    ]);
    const off = await kit.call('PUT', `/v1/rules/${r.id}`, rule({ urgent_only: false }));
    expect(off.body.data.attributes.conditions).toEqual([source]);
    expect((await kit.events()).filter((e) => e.type === 'rule.updated').at(-1)?.data.attributes.conditions).toEqual([source]);
  });

  it('lets beforeRemove refuse a delete with a 422 that changes nothing', async () => {
    const r = (await kit.call('POST', '/v1/rules', rule({ name: 'permanent' }))).body.data;
    const refused = await kit.call('DELETE', `/v1/rules/${r.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('permanent');
    expect(await kit.db.knex('rules').where({ id: r.id })).toHaveLength(1);
  });

  it('serves only PUT and answers delete with an empty 200', async () => {
    const r = (await kit.call('POST', '/v1/rules', rule({ name: 'gone' }))).body.data;
    expect((await kit.call('PATCH', `/v1/rules/${r.id}`, rule({ name: 'x' }))).status).toBe(404);
    const deleted = await kit.call('DELETE', `/v1/rules/${r.id}`);
    expect(deleted).toMatchObject({ status: 200, text: '' });
    expect((await kit.events()).at(-1)).toMatchObject({ type: 'rule.deleted', data: { id: r.id } });
  });
});

describe('children written by id', () => {
  it('changes the entries named by id, adds the others, deletes with _destroy, and keeps the rest', async () => {
    const t = (
      await kit.call('POST', '/v1/templates', {
        data: {
          type: 'templates',
          attributes: {
            name: 't',
            stages_attributes: [
              { name: 'a', body: '1' },
              { name: 'b', body: '2' },
            ],
          },
        },
      })
    ).body.data;
    const [a, b] = t.attributes.stages;
    const res = await kit.call('PATCH', `/v1/templates/${t.id}`, {
      data: { type: 'templates', attributes: { stages_attributes: [{ id: a.id, body: 'one' }, { name: 'c' }] } },
    });
    expect(res.body.data.attributes.stages).toEqual([
      { id: a.id, name: 'a', body: 'one' },
      b,
      { id: expect.any(String), name: 'c', body: null },
    ]);
    const destroyed = await kit.call('PATCH', `/v1/templates/${t.id}`, {
      data: { type: 'templates', attributes: { stages_attributes: [{ id: b.id, _destroy: true }] } },
    });
    expect(destroyed.body.data.attributes.stages.map((s: any) => s.name)).toEqual(['a', 'c']);
  });

  it("answers a child table's unique violation as the 409 the declaration names, with nothing written", async () => {
    const before = Number((await kit.db.knex('templates').count({ n: '*' }))[0].n);
    const res = await kit.call('POST', '/v1/templates', {
      data: { type: 'templates', attributes: { name: 'dup', stages_attributes: [{ name: 'x' }, { name: 'x' }] } },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({
      detail: 'Two stages share a name.',
      source: { pointer: '/data/attributes/stages_attributes' },
    });
    expect(Number((await kit.db.knex('templates').count({ n: '*' }))[0].n)).toBe(before);
  });
});

describe('expand', () => {
  it('adds what responses show from elsewhere to every loaded row: writes, events, gets and lists', async () => {
    const created = await kit.call('POST', '/v1/templates', {
      data: { type: 'templates', attributes: { name: 'exp', stages_attributes: [{ name: 'a' }] } },
    });
    expect(created.body.data.attributes.outline).toBe('Template exp: 1 stages (tx)');
    const { id } = created.body.data;
    const patched = await kit.call('PATCH', `/v1/templates/${id}`, {
      data: { type: 'templates', attributes: { stages_attributes: [{ name: 'b' }] } },
    });
    expect(patched.body.data.attributes.outline).toBe('Template exp: 2 stages (tx)');
    expect((await kit.events()).filter((e) => e.type === 'template.updated').at(-1)?.data.attributes.outline).toBe(
      'Template exp: 2 stages (tx)',
    );
    expect((await kit.call('GET', `/v1/templates/${id}`)).body.data.attributes.outline).toBe('Template exp: 2 stages');
    const listed = (await kit.call('GET', '/v1/templates')).body.data.find((t: any) => t.id === id);
    expect(listed.attributes.outline).toBe('Template exp: 2 stages');
    const deleted = await kit.call('DELETE', `/v1/templates/${id}`);
    expect(deleted.body.data.attributes.outline).toBe('Template exp: 2 stages (tx)');
  });
});
