import type { Knex } from 'knex';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';
import { DB, OPS, seedGroups } from './support/groups.fixture.js';

let h: IncidentConfigHarness;
beforeAll(async () => {
  h = await startIncidentConfig();
  await seedGroups(h.db.knex as Knex, 1, [OPS, DB]);
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
type Answer = Awaited<ReturnType<IncidentConfigHarness['call']>>;
const ops = { group_ids: [OPS] };
const body = (type: string, attributes: Attrs) => ({ data: { type, attributes } });
const create = (type: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/${type}`, { body: body(type, attributes), principal });
const put = (type: string, id: string, attributes: Attrs, principal?: Attrs) =>
  h.call('PUT', `/v1/${type}/${id}`, { body: body(type, attributes), principal });
const idOf = (res: Answer) => {
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id as string;
};
/** The pointers of a 422's invalid_reference issues. */
const refused = (res: Answer) => {
  expect(res.status).toBe(422);
  return res.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]);
};

// A write naming records tells the caller which exist: only those it sees count (docs/security.md, "Records a write names").
describe('ids a write names, for a group key', () => {
  let ours: string;
  let theirs: string;
  let theirFunctionality: string;
  beforeAll(async () => {
    ours = idOf(await create('services', { name: 'Ops service', owner_group_ids: [OPS] }));
    theirs = idOf(await create('services', { name: 'Db service', owner_group_ids: [DB] }));
    theirFunctionality = idOf(await create('functionalities', { name: 'Db functionality', owner_group_ids: [DB] }));
  });

  it("are only its groups' services and functionalities on an incident, as if the others did not exist", async () => {
    const res = await create('incidents', { title: 'Mixed', service_ids: [ours, theirs], functionality_ids: [theirFunctionality] }, ops);
    expect(refused(res)).toEqual([
      ['invalid_reference', '/data/attributes/service_ids/1'],
      ['invalid_reference', '/data/attributes/functionality_ids/0'],
    ]);
    expect(await h.db.knex('incidents').where({ title: 'Mixed' })).toEqual([]);
    expect(idOf(await create('incidents', { title: 'Mine only', service_ids: [ours] }, ops))).toBeDefined();
  });

  it("keeps the ids a record already names: a group key may add its own beside another group's, not add another's", async () => {
    const incident = idOf(await create('incidents', { title: 'Shared outage', service_ids: [theirs] }));
    const added = await put('incidents', incident, { service_ids: [theirs, ours] }, ops);
    expect([added.status, added.body.data?.attributes.service_ids]).toEqual([200, [theirs, ours]]);
    const bare = idOf(await create('incidents', { title: 'Bare' }, ops));
    expect(refused(await put('incidents', bare, { service_ids: [theirs] }, ops))).toEqual([
      ['invalid_reference', '/data/attributes/service_ids/0'],
    ]);
    expect((await h.db.knex('incidents').where({ id: bare }).first()).service_ids).toEqual([]);
  });

  it("are only its groups' services on a functionality, a service, and an incident event's ratings", async () => {
    for (const type of ['functionalities', 'services']) {
      const res = await create(type, { name: `${type} depending`, owner_group_ids: [OPS], service_ids: [theirs] }, ops);
      expect(refused(res)).toEqual([['invalid_reference', '/data/attributes/service_ids/0']]);
    }
    const incident = idOf(await create('incidents', { title: 'Rated' }, ops));
    const event = idOf(
      await h.call('POST', `/v1/incidents/${incident}/events`, { body: body('incident_events', { event: 'Rated' }), principal: ops }),
    );
    const rate = (service: string) =>
      h.call('POST', `/v1/events/${event}/services`, {
        body: body('incident_event_services', { service_id: service, status: 'operational' }),
        principal: ops,
      });
    expect(refused(await rate(theirs))).toEqual([['invalid_reference', '/data/attributes/service_id']]);
    expect((await rate(ours)).status).toBe(201);
  });
});

describe('ids a write names, for a record-scoped key', () => {
  it('are only the records it lists, beside those the record already names', async () => {
    const listedService = idOf(await create('services', { name: 'Listed service' }));
    const unlistedService = idOf(await create('services', { name: 'Unlisted service' }));
    const environment = idOf(await create('environments', { name: 'Unlisted environment' }));
    const incident = idOf(await create('incidents', { title: 'Scoped', service_ids: [unlistedService] }));
    const key = { record_ids: [incident, listedService] };
    const res = await put('incidents', incident, { service_ids: [unlistedService, listedService], environment_ids: [environment] }, key);
    expect(refused(res)).toEqual([['invalid_reference', '/data/attributes/environment_ids/0']]);
    const ok = await put('incidents', incident, { service_ids: [unlistedService, listedService] }, key);
    expect([ok.status, ok.body.data?.attributes.service_ids]).toEqual([200, [unlistedService, listedService]]);
  });
});
