import { randomUUID } from 'node:crypto';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;
let high: string;

const patch = (id: string, attributes: Record<string, unknown>) =>
  h.call('PATCH', `/v1/alert_groups/${id}`, { body: { data: { id, type: 'alert_groups', attributes } } });

const summaryContains = (value: string) => ({
  property_field_type: 'attribute',
  property_field_name: 'summary',
  property_field_condition_type: 'contains',
  property_field_value: value,
});

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_group.*' });
  high = (await h.create('alert_urgencies', { name: 'High', description: 'now' })).body.data.id;
});

afterAll(async () => h?.close());

describe('alert groups', () => {
  it('creates, gets by id and slug, patches, lists and deletes, each with its event', async () => {
    const service = randomUUID();
    const created = await h.create('alert_groups', {
      name: 'Database alerts',
      description: 'db',
      time_window: 30,
      targets: [{ target_type: 'Service', target_id: service.toUpperCase() }],
      conditions: [
        summaryContains('postgres'),
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_one_of',
          alert_urgency_ids: [high],
        },
      ],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Database alerts',
      slug: 'database-alerts',
      description: 'db',
      time_window: 30,
      condition_type: 'all',
      group_by_alert_title: false,
      group_by_alert_urgency: false,
      attributes: [],
      deleted_at: null,
      targets: [{ target_type: 'Service', target_id: service }],
    });
    expect(attributes.conditions).toHaveLength(2);
    expect(attributes.conditions[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      property_field_type: 'attribute',
      property_field_name: 'summary',
      property_field_condition_type: 'contains',
      property_field_value: 'postgres',
      property_field_values: [],
      values: [],
      alert_urgency_ids: null,
      conditionable_type: null,
      conditionable_id: null,
    });
    expect(attributes.conditions[1]).toMatchObject({
      alert_urgency_ids: [high],
      values: [{ record_id: high, record_type: 'AlertUrgency' }],
    });

    expect((await h.call('GET', `/v1/alert_groups/${id}`)).body.data.id).toBe(id);
    expect((await h.call('GET', '/v1/alert_groups/database-alerts')).body.data.id).toBe(id);

    // PATCH without conditions keeps them, ids and all.
    const renamed = await patch(id, { name: 'DB alerts', condition_type: 'any' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.attributes).toMatchObject({ name: 'DB alerts', condition_type: 'any', time_window: 30 });
    expect(renamed.body.data.attributes.conditions).toEqual(attributes.conditions);

    // With conditions, the set is replaced; an unchanged condition keeps its id.
    const replaced = await patch(id, { conditions: [summaryContains('postgres'), summaryContains('mysql')] });
    expect(replaced.status).toBe(200);
    const [kept, added] = replaced.body.data.attributes.conditions;
    expect(kept.id).toBe(attributes.conditions[0].id);
    expect(added.id).not.toBe(attributes.conditions[1].id);
    expect(replaced.body.data.attributes.conditions).toHaveLength(2);

    const list = await h.call('GET', '/v1/alert_groups?filter[name][eq]=DB%20alerts');
    expect(list.status).toBe(200);
    expect(list.body.data.map((g: { id: string }) => g.id)).toEqual([id]);
    expect(
      (await h.call('GET', '/v1/alert_groups?filter[slug][not_in]=database-alerts')).body.data.map((g: { id: string }) => g.id),
    ).not.toContain(id);

    const deleted = await h.call('DELETE', `/v1/alert_groups/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'alert_groups', attributes: { name: 'DB alerts' } });
    expect((await h.call('GET', `/v1/alert_groups/${id}`)).status).toBe(404);
    expect(await h.db.knex('alert_group_conditions').where({ alert_group_id: id })).toHaveLength(0);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 4);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual([
      'alert_group.created',
      'alert_group.updated',
      'alert_group.updated',
      'alert_group.deleted',
    ]);
  });

  it('creates conditions written as the specification has them, giving each a type and a condition type', async () => {
    const created = await h.create('alert_groups', {
      name: 'Spec conditions',
      conditions: [
        { property_field_name: 'summary', property_field_values: ['db down'] },
        { property_field_name: '$.host', property_field_value: 'db-1' },
        { property_field_name: 'alert_urgency', alert_urgency_ids: [high] },
        { conditionable_type: 'AlertField', conditionable_id: 'environment', property_field_values: ['prod'] },
      ],
    });
    expect(created.status).toBe(201);
    const kinds = created.body.data.attributes.conditions.map((c: Record<string, unknown>) => [
      c.property_field_type,
      c.property_field_condition_type,
    ]);
    expect(kinds).toEqual([
      ['attribute', 'is_one_of'],
      ['payload', 'is_one_of'],
      ['attribute', 'is_one_of'],
      ['alert_field', 'is_one_of'],
    ]);
  });

  it('includes the urgencies its conditions name, and takes the names of the records targets name', async () => {
    const team = { team_id: 31 };
    const urgency = (await h.create('alert_urgencies', { name: 'Low', description: 'later' }, { principal: team })).body.data.id;
    const groupId = (
      await h.create(
        'alert_groups',
        { name: 'Included', conditions: [{ property_field_name: 'alert_urgency', alert_urgency_ids: [urgency] }] },
        { principal: team },
      )
    ).body.data.id;
    const listed = await h.call('GET', '/v1/alert_groups?include=alert_urgencies,groups,services,escalation_policies,functionalities', {
      principal: team,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data[0].relationships.alert_urgencies.data).toEqual([{ id: urgency, type: 'alert_urgencies' }]);
    expect(listed.body.included).toEqual([
      expect.objectContaining({ id: urgency, type: 'alert_urgencies', attributes: expect.objectContaining({ name: 'Low' }) }),
    ]);
    expect((await h.call('GET', `/v1/alert_groups/${groupId}?include=alert_urgencies`, { principal: team })).body.included).toHaveLength(1);
    expect((await h.call('GET', '/v1/alert_groups?include=alerts', { principal: team })).status).toBe(400);
  });

  it('maps the legacy attributes onto conditions and reports them as booleans', async () => {
    const created = await h.create('alert_groups', {
      name: 'Legacy',
      group_by_alert_title: 1,
      group_by_alert_urgency: 0,
      attributes: [{ json_path: '$.host' }],
      conditions: [summaryContains('disk')],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({ group_by_alert_title: true, group_by_alert_urgency: false, attributes: [{ json_path: '$.host' }] });
    expect(
      attributes.conditions.map((c: Record<string, unknown>) => [
        c.property_field_type,
        c.property_field_name,
        c.property_field_condition_type,
      ]),
    ).toEqual([
      ['attribute', 'summary', 'contains'],
      ['attribute', 'summary', 'matches_existing_alert'],
      ['payload', '$.host', 'matches_existing_alert'],
    ]);

    const changed = await patch(id, {
      group_by_alert_title: 0,
      group_by_alert_urgency: 1,
      conditions: attributes.conditions.map(({ id: cid }: { id: string }) => ({
        ...attributes.conditions.find((c: { id: string }) => c.id === cid),
        values: undefined,
      })),
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({
      group_by_alert_title: false,
      group_by_alert_urgency: true,
      attributes: [{ json_path: '$.host' }],
    });
    expect(changed.body.data.attributes.conditions[0].id).toBe(attributes.conditions[0].id);

    // Without conditions, the legacy attributes change the stored ones; the others keep their ids.
    const before = changed.body.data.attributes.conditions;
    const legacyOnly = await patch(id, { group_by_alert_urgency: 0, attributes: [{ json_path: '$.region' }, { json_path: '$.host' }] });
    expect(legacyOnly.status).toBe(200);
    expect(legacyOnly.body.data.attributes).toMatchObject({
      group_by_alert_title: false,
      group_by_alert_urgency: false,
      attributes: [{ json_path: '$.host' }, { json_path: '$.region' }],
    });
    const after = legacyOnly.body.data.attributes.conditions;
    expect(after.find((c: { property_field_name: string }) => c.property_field_name === 'summary').id).toBe(before[0].id);
    expect(after.find((c: { property_field_name: string }) => c.property_field_name === '$.host').id).toBe(
      before.find((c: { property_field_name: string }) => c.property_field_name === '$.host').id,
    );
    expect((await patch(id, { group_by_alert_title: 1 })).body.data.attributes.group_by_alert_title).toBe(true);
    expect((await h.create('alert_groups', { name: 'Bad legacy', group_by_alert_title: true })).status).toBe(422);

    // The legacy attributes add conditions after the list's own bound was checked: the bound holds all the same.
    const full = await h.create('alert_groups', {
      name: 'Full',
      conditions: Array.from({ length: 50 }, (_, i) => summaryContains(`w${i}`)),
    });
    expect(full.status).toBe(201);
    const over = await patch(full.body.data.id, { group_by_alert_title: 1 });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'too_many', source: { pointer: '/data/attributes/conditions' } });
    expect(
      (
        await h.create('alert_groups', {
          name: 'Over',
          group_by_alert_urgency: 1,
          conditions: full.body.data.attributes.conditions.map(({ id: _id, values: _v, ...c }: Record<string, unknown>) => c),
        })
      ).status,
    ).toBe(422);
    expect((await h.call('GET', `/v1/alert_groups/${full.body.data.id}`)).body.data.attributes.conditions).toHaveLength(50);
    expect((await h.create('alert_groups', { name: 'Bad path', attributes: [{ json_path: 'host' }] })).status).toBe(422);
  });

  it('answers each mistake with a 422 pointing at it, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', time_window: 0 }, '/data/attributes/time_window'],
      [{ name: 'x', time_window: 100_000 }, '/data/attributes/time_window'],
      [{ name: 'x', condition_type: 'some' }, '/data/attributes/condition_type'],
      [{ name: 'x', targets: [{ target_type: 'Team', target_id: randomUUID() }] }, '/data/attributes/targets/0/target_type'],
      [{ name: 'x', targets: [{ target_type: 'Service', target_id: 'svc-1' }] }, '/data/attributes/targets/0/target_id'],
      [
        {
          name: 'x',
          conditions: [
            {
              property_field_type: 'attribute',
              property_field_name: 'title',
              property_field_condition_type: 'contains',
              property_field_value: 'a',
            },
          ],
        },
        '/data/attributes/conditions/0/property_field_name',
      ],
      [
        {
          name: 'x',
          conditions: [{ property_field_type: 'payload', property_field_name: 'host', property_field_condition_type: 'is_empty' }],
        },
        '/data/attributes/conditions/0/property_field_name',
      ],
      [
        {
          name: 'x',
          conditions: [
            {
              property_field_type: 'payload',
              property_field_name: '$.a',
              property_field_condition_type: 'matches_regex',
              property_field_value: '(a',
            },
          ],
        },
        '/data/attributes/conditions/0/property_field_value',
      ],
      [
        {
          name: 'x',
          conditions: [{ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'is_set' }],
        },
        '/data/attributes/conditions/0/property_field_condition_type',
      ],
      [
        {
          name: 'x',
          conditions: [
            {
              property_field_type: 'attribute',
              property_field_name: 'alert_urgency',
              property_field_condition_type: 'contains',
              property_field_value: 'a',
            },
          ],
        },
        '/data/attributes/conditions/0/property_field_condition_type',
      ],
      [
        {
          name: 'x',
          conditions: [
            {
              property_field_type: 'attribute',
              property_field_name: 'alert_urgency',
              property_field_condition_type: 'is_one_of',
              alert_urgency_ids: [randomUUID()],
            },
          ],
        },
        '/data/attributes/conditions/0/alert_urgency_ids/0',
      ],
      [
        {
          name: 'x',
          conditions: [
            {
              property_field_type: 'attribute',
              property_field_name: 'alert_urgency',
              property_field_condition_type: 'is_one_of',
              alert_urgency_ids: ['high'],
            },
          ],
        },
        '/data/attributes/conditions/0/alert_urgency_ids/0',
      ],
      [
        {
          name: 'x',
          conditions: [{ property_field_type: 'alert_field', property_field_condition_type: 'contains', property_field_value: 'a' }],
        },
        '/data/attributes/conditions/0/conditionable_id',
      ],
      [
        {
          name: 'x',
          conditions: [{ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'is_one_of' }],
        },
        '/data/attributes/conditions/0/property_field_values',
      ],
      [{ name: 'x', conditions: [{ property_field_condition_type: 'is_empty' }] }, '/data/attributes/conditions/0/property_field_name'],
      [{ name: 'x', unknown: 1 }, '/data/attributes/unknown'],
      [
        {
          name: 'x',
          conditions: Array.from({ length: 3 }, () => ({
            ...summaryContains('a'),
            property_field_condition_type: 'matches_regex',
            property_field_value: undefined,
            property_field_values: Array(7).fill('^a'),
          })),
        },
        '/data/attributes/conditions',
      ],
      [{ time_window: 5 }, '/data/attributes/name'],
      [
        { name: 'x', conditions: Array.from({ length: 33 }, (_, i) => summaryContains(`${i}`.padEnd(1_000, 'x'))) },
        '/data/attributes/conditions',
      ],
      [
        {
          name: 'x',
          conditions: [
            { ...summaryContains('a'), id: high },
            { ...summaryContains('b'), id: high.toUpperCase() },
          ],
        },
        '/data/attributes/conditions/1/id',
      ],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await h.create('alert_groups', attributes);
      expect([JSON.stringify(attributes), res.status]).toEqual([JSON.stringify(attributes), 422]);
      expect([JSON.stringify(attributes), res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)]).toEqual([
        JSON.stringify(attributes),
        expect.arrayContaining([pointer]),
      ]);
    }
    expect((await h.call('GET', '/v1/alert_groups?filter[name][eq]=x')).body.data).toHaveLength(0);
    await h.create('alert_groups', { name: 'Unique' });
    expect((await h.create('alert_groups', { name: 'unique' })).status).toBe(409);
    expect((await h.call('GET', '/v1/alert_groups?page[size]=101')).status).toBe(400);
  });

  it('keeps teams apart', async () => {
    const mine = await h.create('alert_groups', { name: 'Team one group' });
    const other = { principal: { team_id: 2 } };
    expect((await h.call('GET', `/v1/alert_groups/${mine.body.data.id}`, other)).status).toBe(404);
    expect((await h.call('GET', '/v1/alert_groups/team-one-group', other)).status).toBe(404);
    expect((await h.call('GET', '/v1/alert_groups', other)).body.data).toEqual([]);
    // Another team's urgency is unknown here.
    const theirs = await h.create('alert_urgencies', { name: 'Theirs', description: 'd' }, other);
    const res = await h.create('alert_groups', {
      name: 'Uses theirs',
      conditions: [
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_one_of',
          alert_urgency_ids: [theirs.body.data.id],
        },
      ],
    });
    expect(res.status).toBe(422);
  });
});

describe('alert groups and urgencies: permissions', () => {
  it('needs oc.alerts for OAuth tokens (read for reads and evaluate, write for writes) and the on-call role', async () => {
    const reader = { principal: { scopes: ['oc.alerts:read'] } };
    expect((await h.call('GET', '/v1/alert_groups', reader)).status).toBe(200);
    expect((await h.call('GET', '/v1/alert_urgencies', reader)).status).toBe(200);
    expect(
      (
        await h.call('POST', '/v1/alert_groups/evaluate', {
          ...reader,
          body: { data: { type: 'alert_group_evaluations', attributes: { alert: {} } } },
        })
      ).status,
    ).toBe(200);
    expect((await h.create('alert_groups', { name: 'Read only' }, reader)).status).toBe(403);
    expect((await h.create('alert_urgencies', { name: 'Read only', description: 'd' }, reader)).status).toBe(403);
    expect((await h.create('alert_groups', { name: 'Writer' }, { principal: { scopes: ['oc.alerts:write'] } })).status).toBe(201);
    expect((await h.create('alert_groups', { name: 'Whole side' }, { principal: { scopes: ['oc.all'] } })).status).toBe(201);
    expect((await h.call('GET', '/v1/alert_groups', { principal: { scopes: ['ir.all'] } })).status).toBe(403);
    expect((await h.call('GET', '/v1/alert_groups', { principal: { scopes: ['oc.schedules:read'] } })).status).toBe(403);
    expect((await h.create('alert_groups', { name: 'Observer' }, { principal: { on_call_role: 'observer' } })).status).toBe(403);
    expect((await h.call('GET', '/v1/alert_groups?include=targets')).status).toBe(400);
  });
});

describe('alert groups: the cap', () => {
  it('holds at most 100 per team, all of them in one list answer', async () => {
    const team = { principal: { team_id: 3 } };
    await h.db.knex('alert_groups').insert(
      Array.from({ length: 99 }, (_, i) => ({
        team_id: 3,
        name: `Bulk ${i}`,
        slug: `bulk-${i}`,
        condition_type: 'all',
        time_window: 60,
      })),
    );
    expect((await h.create('alert_groups', { name: 'The 100th' }, team)).status).toBe(201);
    const over = await h.create('alert_groups', { name: 'The 101st' }, team);
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ code: 'limit_reached', source: { pointer: '/data' } });
    const list = await h.call('GET', '/v1/alert_groups', team);
    expect(list.body.data).toHaveLength(100);
    expect(list.body.data.at(-1).attributes.name).toBe('The 100th');
  });
});
