import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

// No relay: outbox rows stay put, so the events a call wrote can be counted exactly.
let h: IncidentConfigHarness;
beforeAll(async () => {
  h = await startIncidentConfig();
});
afterAll(async () => h?.close());

type Entity = Record<string, unknown>;
/** A new text property of the functionalities catalog, by id. */
const property = async (name: string): Promise<string> =>
  (
    await h.call('POST', '/v1/functionalities/properties', {
      body: { data: { type: 'catalog_properties', attributes: { name, kind: 'text' } } },
    })
  ).body.data.id;
const upsert = (type: string, entities: unknown, principal?: Record<string, unknown>) =>
  h.call('POST', `/v1/${type}/bulk_upsert`, { body: { entities }, principal });
/** Outbox rows whose type matches a LIKE pattern (`functionality.%`). */
const outbox = async (type: string) => Number((await h.db.knex('outbox').whereLike('type', type).count({ n: '*' }))[0].n);
const rows = async (table: string, externalIds?: string[]) => {
  const q = h.db.knex(table);
  if (externalIds) q.whereIn('external_id', externalIds);
  return Number((await q.count({ n: '*' }))[0].n);
};

describe('functionalities bulk_upsert', () => {
  const batch = (): Entity[] =>
    Array.from({ length: 100 }, (_, i) => ({
      external_id: `fn-${i}`,
      name: `Functionality ${i}`,
      position: i,
      backstage_id: `default/component/fn-${i}`,
    }));

  it('writes nothing when one entity of 100 is bad, and names it by index and external_id', async () => {
    const entities = batch();
    entities[57] = { ...entities[57], color: 'blue' };
    const res = await upsert('functionalities', entities);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ status: '422', index: 57, external_id: 'fn-57', source: { pointer: '/entities/57' } });
    expect(res.body.errors[0].errors).toEqual([expect.stringContaining('color')]);
    expect(await rows('functionalities')).toBe(0);
    expect(await outbox('functionality.%')).toBe(0);
  });

  it('writes all of the fixed batch, then a repeat changes nothing and emits nothing', async () => {
    const started = performance.now();
    const res = await upsert('functionalities', batch());
    const ms = performance.now() - started;
    console.log(`bulk_upsert of 100 new functionalities: ${ms.toFixed(0)} ms`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[3]).toMatchObject({
      type: 'functionalities',
      attributes: { name: 'Functionality 3', external_id: 'fn-3', position: 3, managed_by: 'api' },
    });
    expect(await outbox('functionality.created')).toBe(100);

    const stamps = await h.db.knex('functionalities').orderBy('external_id').pluck('updated_at');
    const again = performance.now();
    const repeat = await upsert('functionalities', batch());
    console.log(`bulk_upsert of 100 unchanged functionalities: ${(performance.now() - again).toFixed(0)} ms`);
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.map((r: { id: string }) => r.id)).toEqual(res.body.data.map((r: { id: string }) => r.id));
    expect(await outbox('functionality.%')).toBe(100);
    expect(await h.db.knex('functionalities').orderBy('external_id').pluck('updated_at')).toEqual(stamps);
  });

  it('writes only the attributes present and merges fields into properties', async () => {
    const [a, b] = [await property('a'), await property('b')];
    await upsert('functionalities', [
      { external_id: 'merge-1', name: 'Merge', description: 'keep me', fields: [{ catalog_property_id: a, value: 'one' }] },
    ]);
    const res = await upsert('functionalities', [
      { external_id: 'merge-1', cortex_id: 'cx', fields: [{ catalog_field_id: b, value: 'two' }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data[0].attributes).toMatchObject({ name: 'Merge', description: 'keep me', cortex_id: 'cx' });
    expect(res.body.data[0].attributes.properties).toEqual([
      { catalog_property_id: a, value: 'one' },
      { catalog_property_id: b, value: 'two' },
    ]);
    expect(await outbox('functionality.updated')).toBe(1);
  });

  it('lets concurrent batches take turns: fields of both are kept, and one new external_id is created once', async () => {
    const [a, b] = [await property('race-a'), await property('race-b')];
    await upsert('functionalities', [{ external_id: 'race-1', name: 'Race' }]);
    const [one, two, three, four] = await Promise.all([
      upsert('functionalities', [{ external_id: 'race-1', fields: [{ catalog_property_id: a, value: 'A' }] }]),
      upsert('functionalities', [{ external_id: 'race-1', fields: [{ catalog_property_id: b, value: 'B' }] }]),
      upsert('functionalities', [{ external_id: 'race-new', name: 'New one' }]),
      upsert('functionalities', [{ external_id: 'race-new', name: 'New one' }]),
    ]);
    expect([one.status, two.status, three.status, four.status]).toEqual([200, 200, 200, 200]);
    const stored = await h.db.knex('functionalities').where({ external_id: 'race-1' }).first();
    expect(stored.properties).toEqual(
      expect.arrayContaining([
        { catalog_property_id: a, value: 'A' },
        { catalog_property_id: b, value: 'B' },
      ]),
    );
    expect(await rows('functionalities', ['race-new'])).toBe(1);
  });

  it('names every bad entity: no name for a new record, a duplicate external_id, an unknown attribute, a missing key', async () => {
    const res = await upsert('functionalities', [
      { external_id: 'new-without-name' },
      { external_id: 'dup', name: 'Dup' },
      { external_id: 'dup', name: 'Dup again' },
      { external_id: 'odd', name: 'Odd', slack_channels: [] },
      { name: 'No key' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { index: number; external_id: string }) => [e.index, e.external_id])).toEqual([
      [0, 'new-without-name'],
      [2, 'dup'],
      [3, 'odd'],
      [4, ''],
    ]);
    expect(res.body.errors[0].errors).toEqual(['name is required for a new record']);
    expect(await rows('functionalities', ['dup', 'odd'])).toBe(0);
  });

  it('rolls back every write when one record collides with another by name', async () => {
    await upsert('functionalities', [{ external_id: 'taken', name: 'Taken name' }]);
    const before = await outbox('functionality.%');
    const res = await upsert('functionalities', [
      { external_id: 'fresh-1', name: 'Fresh' },
      { external_id: 'fresh-2', name: 'taken NAME' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ index: 1, external_id: 'fresh-2' });
    expect(await h.db.knex('functionalities').where({ external_id: 'fresh-1' }).first()).toBeUndefined();
    expect(await outbox('functionality.%')).toBe(before);
  });

  it('refuses more than 100 entities and a body without entities', async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ external_id: `x-${i}`, name: `X ${i}` }));
    expect((await upsert('functionalities', tooMany)).status).toBe(422);
    const missing = await h.call('POST', '/v1/functionalities/bulk_upsert', { body: { data: [] } });
    expect(missing.status).toBe(422);
  });

  it('needs create and update capability', async () => {
    expect((await upsert('functionalities', [{ external_id: 'cap', name: 'Cap' }], { capabilities: ['read', 'update'] })).status).toBe(403);
    expect((await upsert('functionalities', [{ external_id: 'cap', name: 'Cap' }], { capabilities: ['read', 'create'] })).status).toBe(403);
  });

  it('refuses a record-scoped key and writes nothing, even for a record it lists', async () => {
    const [row] = await h.db.knex('functionalities').where({ external_id: 'fn-1' }).select('id');
    const res = await upsert('functionalities', [{ external_id: 'fn-1', name: 'Hijack' }], { record_ids: [row.id] });
    expect(res.status).toBe(404);
    expect((await h.db.knex('functionalities').where({ id: row.id }).first()).name).toBe('Functionality 1');
  });

  // docs/decisions.md (Resources): the answer must not tell which external_ids exist.
  it('answers a record-scoped key 404 whatever the external_id', async () => {
    const res = await upsert('functionalities', [{ external_id: 'anything', name: 'Any' }], {
      record_ids: ['8b0c5a9e-2f1d-4c53-9d1e-1a2b3c4d5e6f'],
    });
    expect(res.status).toBe(404);
  });
});

describe('environments bulk_upsert fields', () => {
  it("writes values of the environments catalog's properties, and names the entity whose field is another catalog's", async () => {
    const property = async (family: string) =>
      (
        await h.call('POST', `/v1/${family}/properties`, {
          body: { data: { type: 'catalog_properties', attributes: { name: `${family} region`, kind: 'text' } } },
        })
      ).body.data.id as string;
    const [region, tier] = [await property('environments'), await property('services')];
    const ok = await upsert('environments', [
      { external_id: 'env-fields', name: 'Env fields', fields: [{ catalog_field_id: region, value: 'eu' }] },
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].attributes.properties).toEqual([{ catalog_property_id: region, value: 'eu' }]);
    const bad = await upsert('environments', [
      { external_id: 'env-fields-2', name: 'Env fields 2' },
      { external_id: 'env-fields', fields: [{ catalog_property_id: tier, value: '1' }] },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ index: 1, external_id: 'env-fields', errors: [expect.stringContaining('service catalog')] }),
    ]);
    expect(await rows('environments', ['env-fields-2'])).toBe(0);
  });
});

describe('bulk_upsert fields by property key', () => {
  it("names a property by id, external_id or slug, and fails the entity whose key names none of this catalog's", async () => {
    const create = async (family: string, attributes: Record<string, unknown>) =>
      (
        await h.call('POST', `/v1/${family}/properties`, {
          body: { data: { type: 'catalog_properties', attributes: { kind: 'text', ...attributes } } },
        })
      ).body.data;
    const owner = await create('services', { name: 'Owner team', external_id: 'owner' });
    const tier = await create('services', { name: 'Tier' });
    const other = await create('functionalities', { name: 'Other catalog', external_id: 'elsewhere' });
    expect(tier.attributes.slug).toBe('tier');
    const ok = await upsert('services', [
      {
        external_id: 'svc-keys',
        name: 'Keys',
        fields: [
          { catalog_property_id: 'owner', value: 'sre' },
          { catalog_field_id: 'tier', value: '1' },
        ],
      },
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].attributes.properties).toEqual([
      { catalog_property_id: owner.id, value: 'sre' },
      { catalog_property_id: tier.id, value: '1' },
    ]);
    const before = await outbox('service.%');
    const bad = await upsert('services', [
      { external_id: 'svc-keys', fields: [{ catalog_property_id: owner.id.toUpperCase(), value: 'platform' }] },
      {
        external_id: 'svc-keys-2',
        name: 'Keys 2',
        fields: [
          { catalog_property_id: 'elsewhere', value: 'x' },
          { catalog_property_id: 'nope', value: 'y' },
        ],
      },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({
        index: 1,
        external_id: 'svc-keys-2',
        errors: ['fields: no catalog property "elsewhere"', 'fields: no catalog property "nope"'],
      }),
    ]);
    expect(other.attributes.external_id).toBe('elsewhere');
    expect(await outbox('service.%')).toBe(before);
    expect((await h.call('GET', `/v1/services/${ok.body.data[0].id}`)).body.data.attributes.properties[0].value).toBe('sre');
  });
});

describe.each([
  ['services', 'service', { github_repository_name: 'acme/api', alerts_email_enabled: true }],
  ['environments', 'environment', { color: '#FF0000', notify_emails: ['ops@example.com'] }],
])('%s bulk_upsert', (type, event, extra) => {
  it('creates, then updates only what changed, one event per record written', async () => {
    const [created, updated] = [await outbox(`${event}.created`), await outbox(`${event}.updated`)];
    const first = await upsert(type, [
      { external_id: `${type}-1`, name: `${type} one`, ...extra },
      { external_id: `${type}-2`, name: `${type} two` },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.data[0]).toMatchObject({ type, attributes: { external_id: `${type}-1`, ...extra } });
    const second = await upsert(type, [
      { external_id: `${type}-1`, description: 'now described' },
      { external_id: `${type}-2`, name: `${type} two` },
    ]);
    expect(second.status).toBe(200);
    expect(second.body.data[0].attributes).toMatchObject({ name: `${type} one`, description: 'now described', ...extra });
    expect(await outbox(`${event}.created`)).toBe(created + 2);
    expect(await outbox(`${event}.updated`)).toBe(updated + 1);
  });

  it('refuses the attributes its reference entity does not have', async () => {
    const res = await upsert(type, [{ external_id: `${type}-x`, name: 'X', chat_channels: [] }]);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ index: 0, external_id: `${type}-x`, errors: [expect.stringContaining('chat_channels')] });
  });
});
