import { randomUUID } from 'node:crypto';
import { createTargetSyncStore } from '../../src/data/targets.repository.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { seedService as seedServiceIn } from '../support/targets.fixture.js';
import { seedTeam } from '../support/teams.fixture.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: '#' });
});

afterAll(async () => h?.close());

const seedService = (teamId = 1) => seedServiceIn(h.db.knex, teamId);

const aSource = async (teamId = 1) =>
  (
    await h.create(
      'alert_sources',
      { name: `Source ${randomUUID().slice(0, 6)}`, source_type: 'generic_webhook' },
      { principal: { team_id: teamId } },
    )
  ).body.data.id as string;

const anUrgency = async () =>
  (await h.create('alert_urgencies', { name: `U ${randomUUID().slice(0, 6)}`, description: 'd' })).body.data.id as string;

const condition = (over: Record<string, unknown> = {}) => ({
  property_field_type: 'attribute',
  property_field_name: 'summary',
  property_field_condition_type: 'contains',
  property_field_value: 'disk',
  ...over,
});

describe('alert routes', () => {
  it('creates a route with rules, reads, patches and puts them back keeping ids, lists and deletes', async () => {
    const [source, service, team, urgency] = [await aSource(), await seedService(), await seedTeam(h.db.knex), await anUrgency()];
    const created = await h.create('alert_routes', {
      name: 'Database alerts',
      alerts_source_ids: [source],
      owning_team_ids: [team],
      rules: [
        {
          name: 'Disk',
          position: 1,
          destinations: [{ target_type: 'Service', target_id: service }],
          condition_groups: [
            {
              conditions: [
                condition(),
                condition({
                  property_field_name: 'alert_urgency',
                  property_field_value: null,
                  property_field_condition_type: 'is_one_of',
                  alert_urgency_ids: [urgency],
                }),
              ],
            },
          ],
        },
        { name: 'Everything else', fallback_rule: true, destinations: [{ target_type: 'Group', target_id: team }], condition_groups: [] },
      ],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Database alerts',
      slug: 'database-alerts',
      enabled: true,
      alerts_source_ids: [source],
      owning_team_ids: [team],
    });
    expect(attributes.rules.map((r: { name: string; fallback_rule: boolean }) => [r.name, r.fallback_rule])).toEqual([
      ['Disk', false],
      ['Everything else', true],
    ]);
    const disk = attributes.rules[0];
    expect(disk.condition_groups[0].conditions[0]).toMatchObject({ id: expect.any(String), property_field_value: 'disk' });
    expect(disk.destinations[0]).toEqual({ id: expect.any(String), target_type: 'Service', target_id: service });

    const patched = await h.call('PATCH', `/v1/alert_routes/${id}`, {
      body: { data: { type: 'alert_routes', attributes: { enabled: false, rules: [{ ...disk, name: 'Disk full' }] } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.enabled).toBe(false);
    expect(patched.body.data.attributes.rules).toEqual([{ ...disk, name: 'Disk full' }, attributes.rules[1]]);

    const put = await h.call('PUT', `/v1/alert_routes/${id}`, {
      body: { data: { type: 'alert_routes', attributes: { rules: [{ id: disk.id, _destroy: true }] } } },
    });
    expect(put.body.data.attributes.rules).toEqual([]);
    expect(
      (await h.call('GET', `/v1/alert_routes?filter[name]=${encodeURIComponent('Database alerts')}`)).body.data.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual([id]);
    expect((await h.call('GET', `/v1/alert_routes/database-alerts`)).body.data.id).toBe(id);
    // The reference's show_nested_ids, which its PATCH instructions send: ids are always shown.
    const nested = await h.call('GET', `/v1/alert_routes/${id}?show_nested_ids=true`);
    expect([nested.status, nested.body.data.attributes.rules]).toEqual([200, put.body.data.attributes.rules]);
    expect((await h.call('GET', `/v1/alert_routes/${id}?show_nested_ids=yes`)).status).toBe(400);
    expect((await h.call('DELETE', `/v1/alert_routes/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/alert_routes/${id}`)).status).toBe(404);
    await h.events!.waitFor((es) => es.some((e) => e.body.type === 'alert_route.deleted' && (e.body.data as { id: string }).id === id));
    const types = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.body.type);
    expect(types).toEqual(['alert_route.created', 'alert_route.updated', 'alert_route.updated', 'alert_route.deleted']);
  });

  it('refuses what the team does not have, each at its pointer, and writes nothing', async () => {
    const theirSource = await aSource(2);
    const service = await seedService();
    const answer = await h.create('alert_routes', {
      name: 'Bad',
      alerts_source_ids: [theirSource],
      owning_team_ids: [randomUUID()],
      rules: [
        {
          name: 'r',
          destinations: [
            { target_type: 'Service', target_id: randomUUID() },
            { target_type: 'Group', target_id: service },
          ],
          condition_groups: [
            {
              conditions: [
                condition({
                  property_field_name: 'alert_urgency',
                  property_field_condition_type: 'is_one_of',
                  property_field_value: null,
                  alert_urgency_ids: [randomUUID()],
                }),
              ],
            },
          ],
        },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(
      [
        '/data/attributes/alerts_source_ids/0',
        '/data/attributes/owning_team_ids/0',
        '/data/attributes/rules/0/destinations/0/target_id',
        '/data/attributes/rules/0/destinations/1/target_id',
        '/data/attributes/rules/0/condition_groups/0/conditions/0/alert_urgency_ids/0',
      ].sort(),
    );
    expect(await h.db.knex('alert_routes').where({ name: 'Bad' }).first()).toBeUndefined();
  });

  it('judges conditions by the reference and the safe-regex, fallback rules and positions', async () => {
    const source = await aSource();
    const service = await seedService();
    const to = [{ target_type: 'Service', target_id: service }];
    const answer = await h.create('alert_routes', {
      name: 'Bad conditions',
      alerts_source_ids: [source],
      rules: [
        {
          name: 'a',
          position: 3,
          destinations: to,
          condition_groups: [
            { conditions: [condition({ property_field_condition_type: 'matches_regex', property_field_value: '(a)\\1' })] },
          ],
        },
        {
          name: 'b',
          position: 3,
          destinations: to,
          condition_groups: [{ conditions: [condition({ property_field_condition_type: 'matches_existing_alert' })] }],
        },
        { name: 'c', fallback_rule: true, destinations: to, condition_groups: [] },
        { name: 'd', fallback_rule: true, destinations: to, condition_groups: [] },
        {
          name: 'e',
          destinations: to,
          condition_groups: [{ conditions: [condition({ property_field_type: 'payload', property_field_name: 'not a path' })] }],
        },
      ],
    });
    expect(answer.status).toBe(422);
    const pointersOf = (a: typeof answer) => a.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointersOf(answer)).toEqual([
      '/data/attributes/rules/0/condition_groups/0/conditions/0/property_field_value',
      '/data/attributes/rules/1/condition_groups/0/conditions/0/property_field_condition_type',
      '/data/attributes/rules/4/condition_groups/0/conditions/0/property_field_name',
    ]);
    // The list's own checks, once its rules are sound.
    const ordering = await h.create('alert_routes', {
      name: 'Bad ordering',
      alerts_source_ids: [source],
      rules: [
        { name: 'a', position: 3, destinations: to, condition_groups: [] },
        { name: 'b', position: 3, destinations: to, condition_groups: [] },
        { name: 'c', fallback_rule: true, destinations: to, condition_groups: [] },
        { name: 'd', fallback_rule: true, destinations: to, condition_groups: [{ conditions: [] }] },
      ],
    });
    expect(pointersOf(ordering)).toEqual([
      '/data/attributes/rules/1/position',
      '/data/attributes/rules/3/condition_groups',
      '/data/attributes/rules/3/fallback_rule',
    ]);
  });

  it("sends alerts to the team's escalation policies, and to no other team's", async () => {
    const policy = await h.create('escalation_policies', { name: `Primary ${randomUUID().slice(0, 6)}` });
    expect(policy.status).toBe(201);
    const theirs = await h.create('escalation_policies', { name: 'Theirs' }, { principal: { team_id: 2 } });
    const rules = (id: string) => [
      { name: 'page', destinations: [{ target_type: 'EscalationPolicy', target_id: id }], condition_groups: [] },
    ];
    const source = await aSource();
    expect(
      (await h.create('alert_routes', { name: 'To a policy', alerts_source_ids: [source], rules: rules(policy.body.data.id) })).status,
    ).toBe(201);
    const refused = await h.create('alert_routes', { name: 'To theirs', alerts_source_ids: [source], rules: rules(theirs.body.data.id) });
    expect(refused.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/rules/0/destinations/0/target_id',
    ]);
  });

  it('keeps teams apart and takes the oc.alert_routing_rules scope', async () => {
    const mine = await h.create('alert_routes', { name: 'Mine', alerts_source_ids: [await aSource()] });
    expect(mine.status).toBe(201);
    expect((await h.call('GET', `/v1/alert_routes/${mine.body.data.id}`, { principal: { team_id: 2 } })).status).toBe(404);
    const oauth = (scopes: string[]) => ({ principal: { credential: { type: 'oauth', client_id: 'c' }, scopes } });
    expect((await h.call('GET', '/v1/alert_routes', oauth(['oc.alerts:read', 'oc.alerts:write']))).status).toBe(403);
    expect((await h.call('GET', '/v1/alert_routing_rules', oauth(['oc.alert_routing_rules:read']))).status).toBe(200);
    const body = { name: 'Read only', alerts_source_ids: [] };
    expect((await h.create('alert_routes', body, oauth(['oc.alert_routing_rules:read']))).status).toBe(403);
    expect((await h.create('alert_routes', body, oauth(['oc.alert_routing_rules:read', 'oc.alert_routing_rules:write']))).status).toBe(201);
  });

  it("shows a group-scoped key only its teams' routes, and lets it create only within them", async () => {
    const [ops, other] = [await seedTeam(h.db.knex), await seedTeam(h.db.knex)];
    const group = { principal: { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [ops] } };
    // A group key names only sources it sees: its teams'.
    const source = (await h.create('alert_sources', { name: 'Ops source', source_type: 'generic_webhook', owner_group_ids: [ops] }, group))
      .body.data.id as string;
    const unseen = await aSource();
    expect(
      (await h.create('alert_routes', { name: 'y', alerts_source_ids: [unseen], owning_team_ids: [ops] }, group)).body.errors[0].source
        .pointer,
    ).toBe('/data/attributes/alerts_source_ids/0');
    const theirs = await h.create('alert_routes', { name: 'Theirs', alerts_source_ids: [source], owning_team_ids: [other] });
    const ours = await h.create('alert_routes', { name: 'Ours', alerts_source_ids: [source], owning_team_ids: [ops] }, group);
    expect(ours.status).toBe(201);
    expect((await h.call('GET', `/v1/alert_routes/${theirs.body.data.id}`, group)).status).toBe(404);
    expect((await h.call('GET', '/v1/alert_routes', group)).body.data.map((r: { id: string }) => r.id)).toEqual([ours.body.data.id]);
    expect((await h.create('alert_routes', { name: 'x', alerts_source_ids: [source], owning_team_ids: [other] }, group)).status).toBe(403);
  });
});

describe('references a route already holds', () => {
  it('pass on update though their record was deleted elsewhere; new ones are judged', async () => {
    const [source, service] = [await aSource(), await seedService()];
    const rules = [{ name: 'r', destinations: [{ target_type: 'Service', target_id: service }], condition_groups: [] }];
    const made = await h.create('alert_routes', { name: 'Held', alerts_source_ids: [source], rules });
    expect(made.status).toBe(201);
    const legacy = await h.create('alert_routing_rules', { name: 'Held', alerts_source_id: source, destination: rules[0].destinations[0] });
    expect(legacy.status).toBe(201);
    await createTargetSyncStore(h.db.knex).apply({
      team_id: 1,
      target_type: 'Service',
      target_id: service,
      name: null,
      changed_at: new Date(),
      deleted_at: new Date(),
      member_ids: [],
      admin_ids: [],
    });
    const patch = (attributes: Record<string, unknown>) =>
      h.call('PATCH', `/v1/alert_routes/${made.body.data.id}`, { body: { data: { type: 'alert_routes', attributes } } });
    expect((await patch({ name: 'Held still', rules: made.body.data.attributes.rules })).status).toBe(200);
    const put = await h.call('PUT', `/v1/alert_routing_rules/${legacy.body.data.id}`, {
      body: { data: { type: 'alert_routing_rules', attributes: { name: 'Held still', destination: rules[0].destinations[0] } } },
    });
    expect(put.status).toBe(200);
    const added = await patch({
      rules: [{ ...rules[0], destinations: [{ target_type: 'Service', target_id: await seedService() }, ...rules[0].destinations] }],
    });
    expect(added.status).toBe(200);
    const unknown = await patch({ rules: [{ ...rules[0], destinations: [{ target_type: 'Service', target_id: randomUUID() }] }] });
    expect(unknown.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/rules/0/destinations/0/target_id',
    ]);
  });
});

describe('urgencies named by routing', () => {
  it('cannot be deleted while a route or a legacy rule names them', async () => {
    const [source, service, inRoute, inRule] = [await aSource(), await seedService(), await anUrgency(), await anUrgency()];
    const urgency = (ids: string[]) =>
      condition({
        property_field_name: 'alert_urgency',
        property_field_condition_type: 'is_one_of',
        property_field_value: null,
        alert_urgency_ids: ids,
      });
    const to = [{ target_type: 'Service', target_id: service }];
    const r = await h.create('alert_routes', {
      name: 'Urgent',
      alerts_source_ids: [source],
      rules: [{ name: 'u', destinations: to, condition_groups: [{ conditions: [urgency([inRoute.toUpperCase()])] }] }],
    });
    expect(r.status).toBe(201);
    const legacy = await h.create('alert_routing_rules', {
      name: 'Urgent legacy',
      alerts_source_id: source,
      destination: to[0],
      conditions: [
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_one_of',
          property_field_values: [inRule.toUpperCase()],
        },
      ],
    });
    expect(legacy.status).toBe(201);
    for (const [id, named] of [
      [inRoute, 'alert_routes "Urgent"'],
      [inRule, 'alert_routing_rules "Urgent legacy"'],
    ]) {
      const refused = await h.call('DELETE', `/v1/alert_urgencies/${id}`);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].detail).toContain(named);
    }
  });
});

describe('alert routing rules (legacy)', () => {
  it('creates with conditions and a destination, positions per source, puts, lists and deletes', async () => {
    const [source, service, urgency] = [await aSource(), await seedService(), await anUrgency()];
    const first = await h.create('alert_routing_rules', {
      name: 'Critical',
      alerts_source_id: source,
      condition_type: 'any',
      conditions: [
        condition({
          property_field_value: undefined,
          property_field_condition_type: 'is_one_of',
          property_field_name: 'alert_urgency',
          property_field_values: [urgency],
        }),
        {
          property_field_type: 'payload',
          property_field_name: '$.labels.severity',
          property_field_condition_type: 'is_one_of',
          property_field_values: ['critical'],
        },
      ],
      destination: { target_type: 'Service', target_id: service },
    });
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toMatchObject({
      enabled: true,
      condition_type: 'any',
      destination: { target_type: 'Service', target_id: service },
    });
    const second = await h.create('alert_routing_rules', {
      name: 'Rest',
      alerts_source_id: source,
      destination: { target_type: 'Service', target_id: service },
    });
    expect(second.body.data.attributes.position).toBe(first.body.data.attributes.position + 1);
    const id = first.body.data.id;
    const conditions = first.body.data.attributes.conditions;
    const put = await h.call('PUT', `/v1/alert_routing_rules/${id}`, {
      body: { data: { type: 'alert_routing_rules', attributes: { name: 'Critical!', conditions: conditions.slice(1) } } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes.conditions).toEqual(conditions.slice(1));
    expect((await h.call('DELETE', `/v1/alert_routing_rules/${id}`)).status).toBe(200);
    await h.events!.waitFor((es) =>
      es.some((e) => e.body.type === 'alert_routing_rule.deleted' && (e.body.data as { id: string }).id === id),
    );
  });

  it('refuses unknown sources, destinations, urgencies and attributes at their pointers', async () => {
    const answer = await h.create('alert_routing_rules', {
      name: 'Bad',
      alerts_source_id: randomUUID(),
      conditions: [
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_one_of',
          property_field_values: [randomUUID(), 'high'],
        },
        {
          property_field_type: 'attribute',
          property_field_name: 'colour',
          property_field_condition_type: 'contains',
          property_field_value: 'x',
        },
      ],
      destination: { target_type: 'EscalationPolicy', target_id: randomUUID() },
    });
    expect(answer.status).toBe(422);
    const pointers = answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/data/attributes/conditions/0/property_field_values/1',
        '/data/attributes/conditions/1/property_field_name',
      ]),
    );
    const references = await h.create('alert_routing_rules', {
      name: 'Bad references',
      alerts_source_id: randomUUID(),
      conditions: [
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_one_of',
          property_field_values: [randomUUID()],
        },
      ],
      destination: { target_type: 'EscalationPolicy', target_id: randomUUID() },
    });
    expect(references.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual(
      [
        '/data/attributes/alerts_source_id',
        '/data/attributes/conditions/0/property_field_values/0',
        '/data/attributes/destination/target_id',
      ].sort(),
    );
  });
});

describe("an update's rules", () => {
  const pointers = (a: { body: { errors: { source: { pointer: string } }[] } }) => a.body.errors.map((e) => e.source.pointer);

  it("merge by id on PATCH, as the reference's nested attributes: sent fields change, _destroy drops, the rest stays", async () => {
    const [source, service, other] = [await aSource(), await seedService(), await seedService()];
    const to = [{ target_type: 'Service', target_id: service }];
    const made = await h.create('alert_routes', {
      name: `Merged ${randomUUID().slice(0, 6)}`,
      alerts_source_ids: [source],
      rules: [
        {
          name: 'a',
          position: 1,
          destinations: to,
          condition_groups: [{ conditions: [condition(), condition({ property_field_value: 'cpu' })] }],
        },
        { name: 'b', position: 2, destinations: to, condition_groups: [] },
        { name: 'rest', fallback_rule: true, destinations: to, condition_groups: [] },
      ],
    });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    const [a, b, rest] = made.body.data.attributes.rules;
    const patch = (rules: unknown[]) =>
      h.call('PATCH', `/v1/alert_routes/${id}`, { body: { data: { type: 'alert_routes', attributes: { rules } } } });

    const dropped = await patch([{ id: b.id, _destroy: true }]);
    expect(dropped.status).toBe(200);
    expect(dropped.body.data.attributes.rules).toEqual([a, rest]);

    const group = a.condition_groups[0];
    const changed = await patch([
      {
        id: a.id,
        name: 'a2',
        destinations: [{ target_type: 'Service', target_id: other }],
        condition_groups: [{ id: group.id, conditions: [{ id: group.conditions[0].id, _destroy: true }] }],
      },
      { name: 'c', destinations: to, condition_groups: [] },
    ]);
    expect(changed.status).toBe(200);
    const [a2, rest2, c] = changed.body.data.attributes.rules;
    expect(a2).toEqual({
      ...a,
      name: 'a2',
      destinations: [a.destinations[0], { id: expect.any(String), target_type: 'Service', target_id: other }],
      condition_groups: [{ ...group, conditions: [group.conditions[1]] }],
    });
    expect(rest2).toEqual(rest);
    expect(c).toMatchObject({ name: 'c', position: 4, fallback_rule: false });

    // Refused at the entry sent, and nothing changes.
    const refusals = [
      [[{ id: randomUUID(), _destroy: true }], '/data/attributes/rules/0/id'],
      [[{ id: a.id }, { id: a.id.toUpperCase(), name: 'x' }], '/data/attributes/rules/1/id'],
      [[{ name: 'd', position: 1, destinations: to, condition_groups: [] }], '/data/attributes/rules/0/position'],
      [[{ id: b.id }], '/data/attributes/rules/0/id'],
      [[{ name: 'rest2', fallback_rule: true, destinations: to, condition_groups: [] }], '/data/attributes/rules/0/fallback_rule'],
      [[{ name: 'no destinations', condition_groups: [] }], '/data/attributes/rules/0/destinations'],
      [
        [{ id: a.id, destinations: [{ target_type: 'Service', target_id: randomUUID() }] }],
        '/data/attributes/rules/0/destinations/0/target_id',
      ],
    ] as const;
    for (const [rules, pointer] of refusals) {
      const refused = await patch([...rules]);
      expect([refused.status, pointers(refused)]).toEqual([422, [pointer]]);
    }
    const clash = await patch([{ name: 'd', position: 1, destinations: to, condition_groups: [] }]);
    expect(clash.body.errors[0].detail).toContain('the position of rule "a2" too');
    expect((await h.call('GET', `/v1/alert_routes/${id}`)).body.data.attributes.rules).toEqual(changed.body.data.attributes.rules);

    const put = await h.call('PUT', `/v1/alert_routes/${id}`, { body: { data: { type: 'alert_routes', attributes: { rules: [a2] } } } });
    expect(put.body.data.attributes.rules).toEqual([a2]);
  });

  it('keep what concurrent PATCHes each add: each merges into the route as the one before left it', async () => {
    const [source, service] = [await aSource(), await seedService()];
    const made = await h.create('alert_routes', { name: `Busy ${randomUUID().slice(0, 6)}`, alerts_source_ids: [source] });
    const add = (name: string) =>
      h.call('PATCH', `/v1/alert_routes/${made.body.data.id}`, {
        body: {
          data: {
            type: 'alert_routes',
            attributes: { rules: [{ name, destinations: [{ target_type: 'Service', target_id: service }], condition_groups: [] }] },
          },
        },
      });
    expect((await Promise.all(['a', 'b', 'c', 'd'].map(add))).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rules = (await h.call('GET', `/v1/alert_routes/${made.body.data.id}`)).body.data.attributes.rules;
    expect(rules.map((r: { name: string }) => r.name).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(new Set(rules.map((r: { position: number }) => r.position)).size).toBe(4);
  });
});
