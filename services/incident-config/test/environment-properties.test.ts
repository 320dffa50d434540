import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const property = async (family: string, name: string, principal?: Record<string, unknown>): Promise<string> => {
  const res = await h.call('POST', `/v1/${family}/properties`, {
    body: { data: { type: 'catalog_properties', attributes: { name, kind: 'text' } } },
    principal,
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
};
const environment = (attributes: Record<string, unknown>) =>
  h.call('POST', '/v1/environments', { body: { data: { type: 'environments', attributes } } });
const pointers = (res: { body: { errors: { source: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source.pointer);

beforeAll(async () => {
  h = await startIncidentConfig();
});

afterAll(async () => {
  await h?.close();
});

describe('environment properties', () => {
  it("takes values of the environments catalog's properties only", async () => {
    const region = await property('environments', 'Region');
    const tier = await property('services', 'Service tier');
    const foreign = await property('environments', 'Other team region', { team_id: 2 });

    const ok = await environment({ name: 'Prod', properties: [{ catalog_property_id: region, value: 'eu' }] });
    expect(ok.status).toBe(201);
    expect(ok.body.data.attributes.properties).toEqual([{ catalog_property_id: region, value: 'eu' }]);

    const before = await h.db.knex('environments').count({ n: '*' });
    const unknown = await environment({ name: 'A', properties: [{ catalog_property_id: randomUUID(), value: 'x' }] });
    expect(unknown.status).toBe(422);
    expect(pointers(unknown)).toEqual(['/data/attributes/properties/0/catalog_property_id']);

    const otherCatalog = await environment({
      name: 'B',
      properties: [
        { catalog_property_id: region, value: 'eu' },
        { catalog_property_id: tier, value: '1' },
      ],
    });
    expect(otherCatalog.status).toBe(422);
    expect(pointers(otherCatalog)).toEqual(['/data/attributes/properties/1/catalog_property_id']);

    // Another team's property reads as unknown: the answer does not tell it exists.
    const otherTeam = await environment({ name: 'C', properties: [{ catalog_property_id: foreign, value: 'us' }] });
    expect(otherTeam.status).toBe(422);
    expect(pointers(otherTeam)).toEqual(['/data/attributes/properties/0/catalog_property_id']);
    expect(otherTeam.body.errors[0].detail).toBe(`No catalog property "${foreign}".`);
    expect(await h.db.knex('environments').count({ n: '*' })).toEqual(before);

    const id = ok.body.data.id;
    const update = await h.call('PUT', `/v1/environments/${id}`, {
      body: { data: { type: 'environments', attributes: { properties: [{ catalog_property_id: tier, value: '2' }] } } },
    });
    expect(update.status).toBe(422);
    expect(pointers(update)).toEqual(['/data/attributes/properties/0/catalog_property_id']);
    expect((await h.call('GET', `/v1/environments/${id}`)).body.data.attributes.properties).toEqual([
      { catalog_property_id: region, value: 'eu' },
    ]);
  });

  it("deleting a property removes its values from the catalog's records and keeps the others", async () => {
    const owner = await property('environments', 'Owner');
    const cost = await property('environments', 'Cost');
    const a = (
      await environment({
        name: 'With both',
        properties: [
          { catalog_property_id: owner, value: 'sre' },
          { catalog_property_id: cost, value: '7' },
        ],
      })
    ).body.data.id;
    const b = (await environment({ name: 'With owner', properties: [{ catalog_property_id: owner, value: 'dev' }] })).body.data.id;

    const before = Number((await h.db.knex('outbox').max({ seq: 'seq' }).first())?.seq ?? 0);
    expect((await h.call('DELETE', `/v1/catalog_properties/${owner}`)).status).toBe(200);
    // Each record changed is announced, in the delete's transaction, with its new values.
    const written = (await h.db.knex('outbox').where('seq', '>', before).orderBy('seq').select('type', 'payload')) as {
      type: string;
      payload: any;
    }[];
    expect(written.map((e) => e.type).sort()).toEqual(['catalog_property.deleted', 'environment.updated', 'environment.updated']);
    expect(JSON.stringify(written.filter((e) => e.type === 'environment.updated'))).not.toContain(owner);

    expect((await h.call('GET', `/v1/environments/${a}`)).body.data.attributes.properties).toEqual([
      { catalog_property_id: cost, value: '7' },
    ]);
    expect((await h.call('GET', `/v1/environments/${b}`)).body.data.attributes.properties).toEqual([]);
    // A deleted property is unknown from then on.
    const again = await h.call('PUT', `/v1/environments/${b}`, {
      body: { data: { type: 'environments', attributes: { properties: [{ catalog_property_id: owner, value: 'x' }] } } },
    });
    expect(again.status).toBe(422);
  });
});
