import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'incident_event_service.*' });
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
const type = 'incident_event_services';
const make = async (path: string, resourceType: string, attributes: Attrs, principal?: Attrs) => {
  const res = await h.call('POST', path, { body: { data: { type: resourceType, attributes } }, principal });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
type Fixture = { service: string; incident: string; event: string };

/** A service and an event of a fresh incident of the team. */
async function fixture(name: string, principal?: Attrs): Promise<Fixture> {
  const service = await make('/v1/services', 'services', { name: `${name} service` }, principal);
  const incident = await make('/v1/incidents', 'incidents', { title: name }, principal);
  const event = await make(`/v1/incidents/${incident}/events`, 'incident_events', { event: `${name} happened` }, principal);
  return { service, incident, event };
}
const post = (event: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/events/${event}/services`, { body: { data: { type, attributes } }, principal });

describe('incident event services', () => {
  it('creates under the event, lists, gets, changes the status with PUT, deletes answering the record', async () => {
    const { service, event } = await fixture('Rated');
    const other = await fixture('Rated elsewhere');
    await post(other.event, { service_id: other.service, status: 'operational' });

    const created = await post(event, { incident_event_id: event, service_id: service.toUpperCase(), status: 'partial_outage' });
    expect(created.status).toBe(201);
    const { id } = created.body.data;
    expect(created.body.data).toEqual({
      id,
      type,
      attributes: { incident_event_id: event, service_id: service, status: 'partial_outage' },
    });

    const listed = await h.call('GET', `/v1/events/${event}/services`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([id]);

    expect((await h.call('GET', `/v1/incident_event_services/${id}`)).body.data.attributes.status).toBe('partial_outage');
    const updated = await h.call('PUT', `/v1/incident_event_services/${id}`, {
      body: { data: { id, type, attributes: { status: 'major_outage' } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toEqual({ incident_event_id: event, service_id: service, status: 'major_outage' });
    const deleted = await h.call('DELETE', `/v1/incident_event_services/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type, attributes: { status: 'major_outage' } });
    expect((await h.call('GET', `/v1/incident_event_services/${id}`)).status).toBe(404);

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual([
      'incident_event_service.created',
      'incident_event_service.updated',
      'incident_event_service.deleted',
    ]);
  });

  it.each([
    ['an unknown status', (f: Fixture) => ({ service_id: f.service, status: 'degraded' }), '/data/attributes/status'],
    ['no service_id', () => ({ status: 'operational' }), '/data/attributes/service_id'],
    ['a service that does not exist', () => ({ service_id: randomUUID(), status: 'operational' }), '/data/attributes/service_id'],
    [
      'another event in the body',
      (f: Fixture) => ({ incident_event_id: randomUUID(), service_id: f.service, status: 'operational' }),
      '/data/attributes/incident_event_id',
    ],
  ])('refuses %s with a 422 and writes nothing', async (name, attributes, pointer) => {
    const f = await fixture(`Bad ${name}`);
    const res = await post(f.event, attributes(f));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    expect(await h.db.knex(type).where({ incident_event_id: f.event }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it("creates the specification's body, the event and the service only, as operational", async () => {
    const f = await fixture('Spec only');
    const res = await post(f.event, { incident_event_id: f.event, service_id: f.service });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toEqual({ incident_event_id: f.event, service_id: f.service, status: 'operational' });
  });

  it("refuses another team's service as a 422 naming service_id, and a service rated twice on one event as a 409", async () => {
    const f = await fixture('Cross team');
    const theirs = await make('/v1/services', 'services', { name: 'Their rated service' }, { team_id: 2 });
    const res = await post(f.event, { service_id: theirs, status: 'operational' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/service_id');
    expect((await post(f.event, { service_id: f.service, status: 'operational' })).status).toBe(201);
    const twice = await post(f.event, { service_id: f.service, status: 'major_outage' });
    expect(twice.status).toBe(409);
    expect(twice.body.errors[0].source.pointer).toBe('/data/attributes/service_id');
  });

  it('only the status changes', async () => {
    const f = await fixture('Status only');
    const id = (await post(f.event, { service_id: f.service, status: 'operational' })).body.data.id;
    const res = await h.call('PUT', `/v1/incident_event_services/${id}`, {
      body: { data: { type, attributes: { status: 'operational', service_id: f.service } } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/service_id');
    expect((await h.call('PUT', `/v1/incident_event_services/${id}`, { body: { data: { type, attributes: {} } } })).status).toBe(422);
  });

  it("answers 404 for an event of another team's incident as a parent, and for their records", async () => {
    const theirs = await fixture('Their outage', { team_id: 2 });
    const theirRecord = (await post(theirs.event, { service_id: theirs.service, status: 'operational' }, { team_id: 2 })).body.data.id;
    const mine = await fixture('My outage');
    expect((await post(theirs.event, { service_id: mine.service, status: 'operational' })).status).toBe(404);
    expect((await h.call('GET', `/v1/events/${theirs.event}/services`)).status).toBe(404);
    expect((await h.call('GET', `/v1/events/${randomUUID()}/services`)).status).toBe(404);
    expect((await h.call('GET', `/v1/incident_event_services/${theirRecord}`)).status).toBe(404);
    expect(
      (
        await h.call('PUT', `/v1/incident_event_services/${theirRecord}`, {
          body: { data: { type, attributes: { status: 'major_outage' } } },
        })
      ).status,
    ).toBe(404);
    expect((await h.call('DELETE', `/v1/incident_event_services/${theirRecord}`)).status).toBe(404);
    expect(await h.db.knex(type).where({ id: theirRecord }).first('status')).toEqual({ status: 'operational' });
  });

  const deletedEvent = (id: string) =>
    h.events!.waitFor((es) =>
      es.some((e) => e.routingKey === 'incident_event_service.deleted' && (e.body.data as { id: string }).id === id),
    );

  it('goes with its event, and its event with the incident, each announced', async () => {
    const f = await fixture('Cascade');
    const id = (await post(f.event, { service_id: f.service, status: 'operational' })).body.data.id;
    expect((await h.call('DELETE', `/v1/incidents/${f.incident}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/incident_event_services/${id}`)).status).toBe(404);
    await deletedEvent(id);
  });

  it('goes with its service, announced', async () => {
    const f = await fixture('Service cascade');
    const id = (await post(f.event, { service_id: f.service, status: 'major_outage' })).body.data.id;
    expect((await h.call('DELETE', `/v1/services/${f.service}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/incident_event_services/${id}`)).status).toBe(404);
    await deletedEvent(id);
  });
});
