import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: '*.*' });
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
const names = (res: { body: { data: { attributes: { name: string } }[] } }) => res.body.data.map((r) => r.attributes.name);
/** A new text property of the catalog of `family` (services, functionalities), by id. */
const property = async (family: string): Promise<string> =>
  (
    await h.call('POST', `/v1/${family}/properties`, {
      body: { data: { type: 'catalog_properties', attributes: { name: `p-${randomUUID()}`, kind: 'text' } } },
    })
  ).body.data.id;

describe.each([
  ['services', 'service'],
  ['functionalities', 'functionality'],
])('%s', (type, event) => {
  const path = `/v1/${type}`;
  const create = (attributes: Attrs, principal?: Attrs) => h.call('POST', path, { body: { data: { type, attributes } }, principal });

  it('creates, gets by id and slug, updates with PUT, deletes answering the record, one event each', async () => {
    const created = await create({
      name: `Checkout ${type}`,
      description: 'Takes money',
      color: '#00FF00',
      position: 2,
      external_id: `ext-${type}`,
      backstage_id: 'default/component/checkout',
      chat_channels: [{ id: 'C1', name: 'checkout' }],
      show_uptime_last_days: 30,
      properties: [{ catalog_property_id: await property(type), value: 'gold' }],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe(type);
    expect(attributes).toMatchObject({
      name: `Checkout ${type}`,
      slug: `checkout-${type}`,
      managed_by: 'api',
      description: 'Takes money',
      color: '#00FF00',
      position: 2,
      external_id: `ext-${type}`,
      backstage_id: 'default/component/checkout',
      chat_channels: [{ id: 'C1', name: 'checkout' }],
      show_uptime_last_days: 30,
      notify_emails: [],
      environment_ids: [],
      owner_user_ids: [],
      cortex_id: null,
    });
    expect(attributes.properties).toHaveLength(1);
    expect(attributes).not.toHaveProperty('slack_channels');

    expect((await h.call('GET', `${path}/checkout-${type}`)).body.data.id).toBe(id);
    const updated = await h.call('PUT', `${path}/${id}`, {
      body: { data: { id, type, attributes: { description: null, owner_user_ids: [7] } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: `Checkout ${type}`, description: null, owner_user_ids: [7] });
    // The reference updates these with PUT only.
    expect((await h.call('PATCH', `${path}/${id}`, { body: { data: { type, attributes: { name: 'x' } } } })).status).toBe(404);

    const deleted = await h.call('DELETE', `${path}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type, attributes: { description: null } });
    expect((await h.call('GET', `${path}/${id}`)).status).toBe(404);

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual([`${event}.created`, `${event}.updated`, `${event}.deleted`]);
  });

  it.each([
    ['missing name', {}, '/data/attributes/name'],
    ['a slack_ name', { name: 'x', slack_channels: [] }, '/data/attributes/slack_channels'],
    ['an uptime window the reference has not', { name: 'x', show_uptime_last_days: 45 }, '/data/attributes/show_uptime_last_days'],
    ['a bad environment id', { name: 'x', environment_ids: ['prod'] }, '/data/attributes/environment_ids/0'],
    ['an empty external_id', { name: 'x', external_id: '' }, '/data/attributes/external_id'],
  ])('refuses %s with a 422 and writes nothing', async (_case, attributes, pointer) => {
    const before = await h.db.knex(type).count({ n: '*' });
    const res = await create(attributes);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect(await h.db.knex(type).count({ n: '*' })).toEqual(before);
  });

  it('accepts environment_ids and service_ids of the team only, naming the id that is not', async () => {
    const env = (
      await h.call('POST', '/v1/environments', { body: { data: { type: 'environments', attributes: { name: `Env for ${type}` } } } })
    ).body.data.id;
    const theirs = (
      await h.call('POST', '/v1/services', {
        body: { data: { type: 'services', attributes: { name: `Theirs ${type}` } } },
        principal: { team_id: 2 },
      })
    ).body.data.id;
    const ok = await create({ name: `Linked ${type}`, environment_ids: [env.toUpperCase()] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.attributes.environment_ids).toEqual([env]);
    const id = ok.body.data.id;
    const bad = await h.call('PUT', `${path}/${id}`, {
      body: { data: { type, attributes: { environment_ids: [env], service_ids: [theirs] } } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/data/attributes/service_ids/0']);
    const missing = await create({ name: `Dangling ${type}`, environment_ids: [randomUUID()] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source.pointer).toBe('/data/attributes/environment_ids/0');
    expect((await h.call('GET', `${path}/${id}`)).body.data.attributes.service_ids).toEqual([]);
  });

  it('keeps names and external_ids unique per team, not across teams', async () => {
    expect((await create({ name: 'Unique one', external_id: 'u-1' })).status).toBe(201);
    const sameName = await create({ name: 'unique ONE' });
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors[0].source.pointer).toBe('/data/attributes/name');
    const sameKey = await create({ name: 'Unique two', external_id: 'u-1' });
    expect(sameKey.status).toBe(409);
    expect(sameKey.body.errors[0].source.pointer).toBe('/data/attributes/external_id');
    expect((await create({ name: 'Unique one', external_id: 'u-1' }, { team_id: 2 })).status).toBe(201);
  });

  it('filters by the reference fields with their variants, sorts and pages', async () => {
    const tag = randomUUID().slice(0, 8);
    await create({ name: `${tag} Alpha`, cortex_id: 'cx-a', opslevel_id: 'ol-a', external_id: `${tag}-a` });
    await create({ name: `${tag} Bravo`, cortex_id: 'cx-b', description: 'needle here', backstage_id: 'bs-b' });
    await create({ name: `${tag} Charlie`, cortex_id: 'cx-b', external_id: `${tag}-c` });
    const q = (query: string) => h.call('GET', `${path}?filter[search]=${tag}&${query}`);
    expect(names(await q('sort=-name'))).toEqual([`${tag} Charlie`, `${tag} Bravo`, `${tag} Alpha`]);
    expect(names(await q('filter[cortex_id]=cx-b&sort=name'))).toEqual([`${tag} Bravo`, `${tag} Charlie`]);
    expect(names(await q('filter[opslevel_id]=ol-a'))).toEqual([`${tag} Alpha`]);
    expect(names(await q('filter[backstage_id]=bs-b'))).toEqual([`${tag} Bravo`]);
    expect(names(await q(`filter[external_id]=${tag}-c`))).toEqual([`${tag} Charlie`]);
    expect(names(await q(`filter[name][not_in]=${tag} Alpha,${tag} Charlie`))).toEqual([`${tag} Bravo`]);
    expect(names(await q(`filter[slug][eq]=${tag}-alpha`))).toEqual([`${tag} Alpha`]);
    expect(names(await q(`filter[name][not_eq]=${tag} Alpha&sort=name`))).toEqual([`${tag} Bravo`, `${tag} Charlie`]);
    expect(names(await h.call('GET', `${path}?filter[search]=needle`))).toEqual([`${tag} Bravo`]);
    const page = await q('sort=name&page[size]=2&page[number]=2');
    expect(names(page)).toEqual([`${tag} Charlie`]);
    expect(page.body.meta).toMatchObject({ total_count: 3, total_pages: 2 });
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await q(`filter[created_at][gt]=${future}`)).body.data).toEqual([]);
    expect((await q(`filter[created_at][lte]=${future}`)).body.data).toHaveLength(3);
    expect((await h.call('GET', `${path}?filter[color]=red`)).status).toBe(400);
  });

  it('answers another team, and a record-scoped key outside its list, with 404', async () => {
    const id = (await create({ name: 'Team one only' })).body.data.id;
    expect((await h.call('GET', `${path}/${id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await h.call('DELETE', `${path}/${id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await h.call('GET', `${path}/${id}`, { principal: { record_ids: [randomUUID()] } })).status).toBe(404);
    expect((await h.call('GET', `${path}/${id}`)).status).toBe(200);
  });
});

describe('services broadcast filters', () => {
  it('filter alert_broadcast_enabled and incident_broadcast_enabled with eq, not_eq, in and not_in', async () => {
    const tag = randomUUID().slice(0, 8);
    const make = (name: string, attributes: Attrs) =>
      h.call('POST', '/v1/services', { body: { data: { type: 'services', attributes: { name: `${tag} ${name}`, ...attributes } } } });
    expect(
      (await make('loud', { alert_broadcast_enabled: true, alert_broadcast_channel: { id: 'C9' }, incident_broadcast_enabled: false }))
        .status,
    ).toBe(201);
    await make('quiet', { alert_broadcast_enabled: false, incident_broadcast_enabled: true });
    await make('unset', {});
    const q = async (query: string) => names(await h.call('GET', `/v1/services?filter[search]=${tag}&sort=name&${query}`));
    expect(await q('filter[alert_broadcast_enabled]=true')).toEqual([`${tag} loud`]);
    expect(await q('filter[alert_broadcast_enabled][not_eq]=true')).toEqual([`${tag} quiet`, `${tag} unset`]);
    expect(await q('filter[incident_broadcast_enabled][in]=true,false')).toEqual([`${tag} loud`, `${tag} quiet`]);
    expect(await q('filter[incident_broadcast_enabled][not_in]=true')).toEqual([`${tag} loud`, `${tag} unset`]);
    expect((await h.call('GET', '/v1/services?filter[alert_broadcast_enabled]=maybe')).status).toBe(400);
    expect((await h.call('GET', '/v1/functionalities?filter[alert_broadcast_enabled]=true')).status).toBe(400);
  });
});

describe('catalog properties on services and functionalities', () => {
  it('refuses a property of another catalog or team, naming it, and writes nothing', async () => {
    const environmentProperty = await property('environments');
    const theirs = (
      await h.call('POST', '/v1/services/properties', {
        body: { data: { type: 'catalog_properties', attributes: { name: 'theirs', kind: 'text' } } },
        principal: { team_id: 2 },
      })
    ).body.data.id;
    for (const id of [environmentProperty, theirs]) {
      const res = await h.call('POST', '/v1/services', {
        body: { data: { type: 'services', attributes: { name: `S ${id}`, properties: [{ catalog_property_id: id, value: 'x' }] } } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/properties/0/catalog_property_id');
    }
    expect(await h.db.knex('services').whereLike('name', 'S %')).toHaveLength(0);
  });
});
