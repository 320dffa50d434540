import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const alice = { user_id: 101, role: 'user' };
const bob = { user_id: 102, role: 'user' };
const teamKey = { user_id: null, role: 'user' };
const stranger = { team_id: 2, user_id: 201, role: 'user' };

const panelBody = (attributes: Record<string, unknown>) => ({ data: { type: 'dashboard_panels', attributes } });
const params = {
  display: 'line_chart',
  datasets: [
    {
      name: 'Incidents',
      collection: 'incidents',
      filter: [{ operation: 'and', rules: [{ operation: 'and', condition: '=', key: 'status', value: 'resolved' }] }],
      group_by: { key: 'incident_role', value: 'commander' },
      aggregate: { operation: 'count', key: null, cumulative: false },
    },
  ],
  legend: { groups: 'charted' },
};
const position = { x: 0, y: 0, w: 6, h: 4 };
const pointers = (res: { body: { errors: { source?: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);
const dashboard = async (attributes: Record<string, unknown>, principal: Record<string, unknown> = alice) =>
  (
    await h.call('POST', '/v1/dashboards', {
      principal,
      body: { data: { type: 'dashboards', attributes: { name: `Board ${randomUUID()}`, ...attributes } } },
    })
  ).body.data.id as string;
const addPanel = (
  dashboardId: string,
  attributes: Record<string, unknown> = { name: 'Resolved', params, position },
  principal: Record<string, unknown> = alice,
) => h.call('POST', `/v1/dashboards/${dashboardId}/panels`, { principal, body: panelBody(attributes) });
const panelCount = async () => Number((await h.db.knex('dashboard_panels').count({ n: '*' }))[0].n);

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'dashboard_panel.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('dashboard panels', () => {
  it('creates under a dashboard, lists, gets, updates with PUT, duplicates and deletes, emitting each change', async () => {
    const board = await dashboard({ owner: 'user' });
    const created = await addPanel(board);
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toEqual({ dashboard_id: board, name: 'Resolved', params, position, data: [] });

    const listed = await h.call('GET', `/v1/dashboards/${board}/panels`, { principal: alice });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(listed.body.meta.total_count).toBe(1);
    expect((await h.call('GET', `/v1/dashboard_panels/${id}`, { principal: alice })).body.data.attributes.name).toBe('Resolved');
    // No panel data is computed here, so the reference's data query parameters are refused rather than ignored.
    expect((await h.call('GET', `/v1/dashboard_panels/${id}?period=week`, { principal: alice })).status).toBe(400);

    const updated = await h.call('PUT', `/v1/dashboard_panels/${id}`, {
      principal: alice,
      body: panelBody({ params: { display: 'pie_chart' }, position: null }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'Resolved', params: { display: 'pie_chart' }, position: null });

    const copy = await h.call('POST', `/v1/dashboard_panels/${id}/duplicate`, { principal: alice });
    expect(copy.status).toBe(201);
    expect(copy.body.data.attributes).toMatchObject({ dashboard_id: board, name: 'Resolved (copy)', params: { display: 'pie_chart' } });
    expect(copy.body.data.id).not.toBe(id);

    const deleted = await h.call('DELETE', `/v1/dashboard_panels/${id}`, { principal: alice });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'dashboard_panels' });
    expect((await h.call('GET', `/v1/dashboard_panels/${id}`, { principal: alice })).status).toBe(404);

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual(['dashboard_panel.created', 'dashboard_panel.updated', 'dashboard_panel.deleted']);
    await h.events!.waitFor((es) => es.some((e) => (e.body.data as { id: string }).id === copy.body.data.id));
  });

  it.each([
    ['missing params', { name: 'x' }, '/data/attributes/params'],
    ['an unknown display', { params: { display: 'radar' } }, '/data/attributes/params/display'],
    [
      'an unknown dataset collection',
      { params: { datasets: [{ collection: 'services' }] } },
      '/data/attributes/params/datasets/0/collection',
    ],
    [
      'an unknown aggregate operation',
      { params: { datasets: [{ aggregate: { operation: 'max' } }] } },
      '/data/attributes/params/datasets/0/aggregate/operation',
    ],
    [
      'an unknown filter condition',
      { params: { datasets: [{ filter: [{ rules: [{ condition: 'like' }] }] }] } },
      '/data/attributes/params/datasets/0/filter/0/rules/0/condition',
    ],
    ['a position without h', { params: {}, position: { x: 0, y: 0, w: 1 } }, '/data/attributes/position/h'],
    ['an unknown attribute', { params: {}, dashboard_id: randomUUID() }, '/data/attributes/dashboard_id'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const board = await dashboard({ owner: 'team' });
    const before = await panelCount();
    const res = await addPanel(board, attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await panelCount()).toBe(before);
  });

  it('follows its dashboard: hidden with it (404), and changed only by those who may change it (403)', async () => {
    const board = await dashboard({ owner: 'user' });
    const panel = (await addPanel(board)).body.data.id;
    for (const [method, path] of [
      ['GET', `/v1/dashboards/${board}/panels`],
      ['POST', `/v1/dashboards/${board}/panels`],
      ['GET', `/v1/dashboard_panels/${panel}`],
      ['PUT', `/v1/dashboard_panels/${panel}`],
      ['DELETE', `/v1/dashboard_panels/${panel}`],
      ['POST', `/v1/dashboard_panels/${panel}/duplicate`],
    ]) {
      const res = await h.call(method, path, {
        principal: bob,
        body: method === 'POST' || method === 'PUT' ? panelBody({ params: {} }) : undefined,
      });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }

    await h.call('POST', '/v1/authorizations', {
      principal: alice,
      body: {
        data: {
          type: 'authorizations',
          attributes: {
            authorizable_id: board,
            authorizable_type: 'Dashboard',
            grantee_type: 'User',
            grantee_id: '102',
            permissions: ['read'],
          },
        },
      },
    });
    expect((await h.call('GET', `/v1/dashboard_panels/${panel}`, { principal: bob })).status).toBe(200);
    expect((await h.call('GET', `/v1/dashboards/${board}/panels`, { principal: bob })).body.data).toHaveLength(1);
    const before = await panelCount();
    for (const res of [
      await addPanel(board, { params: {} }, bob),
      await h.call('PUT', `/v1/dashboard_panels/${panel}`, { principal: bob, body: panelBody({ name: 'Mine' }) }),
      await h.call('DELETE', `/v1/dashboard_panels/${panel}`, { principal: bob }),
      await h.call('POST', `/v1/dashboard_panels/${panel}/duplicate`, { principal: bob }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_granted');
    }
    expect(await panelCount()).toBe(before);
    expect((await h.call('GET', `/v1/dashboard_panels/${panel}`, { principal: alice })).body.data.attributes.name).toBe('Resolved');
  });

  it('holds at most 100 panels per dashboard, also when creates race', async () => {
    const [full, other] = [await dashboard({ owner: 'team' }), await dashboard({ owner: 'team' })];
    const answers = await Promise.all(Array.from({ length: 110 }, () => addPanel(full)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(100);
    const refused = answers.find((r) => r.status === 422);
    expect(refused?.body.errors[0]).toMatchObject({ code: 'limit_reached', detail: 'A dashboard holds at most 100 panels.' });
    expect(Number((await h.db.knex('dashboard_panels').where({ dashboard_id: full }).count({ n: '*' }))[0].n)).toBe(100);
    expect((await addPanel(other)).status).toBe(201);
  });

  it('keeps teams apart, also as the dashboard in the path', async () => {
    const board = await dashboard({ owner: 'team' });
    const panel = (await addPanel(board)).body.data.id;
    expect((await h.call('GET', `/v1/dashboards/${board}/panels`, { principal: stranger })).status).toBe(404);
    expect((await addPanel(board, { params: {} }, stranger)).status).toBe(404);
    expect((await h.call('GET', `/v1/dashboard_panels/${panel}`, { principal: stranger })).status).toBe(404);
    expect((await h.call('PUT', `/v1/dashboard_panels/${panel}`, { principal: stranger, body: panelBody({ name: 'x' }) })).status).toBe(
      404,
    );
    expect((await h.call('DELETE', `/v1/dashboard_panels/${panel}`, { principal: stranger })).status).toBe(404);
    expect((await h.call('GET', `/v1/dashboards/${randomUUID()}/panels`, { principal: alice })).status).toBe(404);
    expect((await h.call('GET', `/v1/dashboard_panels/${panel}`, { principal: alice })).status).toBe(200);
  });

  it('includes the panels of each dashboard with include=panels', async () => {
    const board = await dashboard({ owner: 'team' });
    const first = (await addPanel(board, { name: 'First', params })).body.data.id;
    const second = (await addPanel(board, { name: 'Second', params: { display: 'table' } })).body.data.id;
    const one = await h.call('GET', `/v1/dashboards/${board}?include=panels`, { principal: bob });
    expect(one.status).toBe(200);
    expect(one.body.included.map((p: { id: string; type: string }) => [p.type, p.id])).toEqual([
      ['dashboard_panels', first],
      ['dashboard_panels', second],
    ]);
    const all = await h.call('GET', '/v1/dashboards?include=panels&page[size]=100', { principal: bob });
    expect(all.body.included.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([first, second]));
    expect((await h.call('GET', `/v1/dashboards/${board}`, { principal: bob })).body.included ?? []).toEqual([]);
    expect((await h.call('GET', `/v1/dashboards/${board}?include=owner`, { principal: bob })).status).toBe(400);
  });

  it('duplicates a dashboard with its panels, the copy owned by the caller', async () => {
    const board = await dashboard({ owner: 'team', color: '#E9E2FF', period: 'month' });
    await addPanel(board, { name: 'A', params });
    await addPanel(board, { name: 'B', params: { display: 'table' } });
    const copy = await h.call('POST', `/v1/dashboards/${board}/duplicate`, { principal: bob });
    expect(copy.status).toBe(201);
    const attributes = copy.body.data.attributes;
    expect(attributes).toMatchObject({ owner: 'user', user_id: 102, color: '#E9E2FF', period: 'month' });
    expect(attributes.name).toMatch(/ \(copy\)$/);
    const panels = await h.call('GET', `/v1/dashboards/${copy.body.data.id}/panels`, { principal: bob });
    expect(panels.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual(['A', 'B']);
    expect((await h.call('GET', `/v1/dashboards/${copy.body.data.id}`, { principal: alice })).status).toBe(404);

    const byKey = await h.call('POST', `/v1/dashboards/${board}/duplicate`, { principal: teamKey });
    expect(byKey.body.data.attributes).toMatchObject({ owner: 'team', user_id: null });
    const own = await dashboard({ owner: 'user' });
    await h.call('POST', '/v1/authorizations', {
      principal: alice,
      body: {
        data: {
          type: 'authorizations',
          attributes: {
            authorizable_id: own,
            authorizable_type: 'Dashboard',
            grantee_type: 'Team',
            grantee_id: '1',
            permissions: ['read'],
          },
        },
      },
    });
    expect((await h.call('POST', `/v1/dashboards/${own}/duplicate`, { principal: teamKey })).status).toBe(422);
  });
});
