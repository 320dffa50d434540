import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'incident_event.*' });
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
const type = 'incident_events';
const incident = async (title: string, principal?: Attrs) =>
  (await h.call('POST', '/v1/incidents', { body: { data: { type: 'incidents', attributes: { title } } }, principal })).body.data as {
    id: string;
    attributes: { slug: string };
  };
const post = (incidentId: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/incidents/${incidentId}/events`, { body: { data: { type, attributes } }, principal });

describe('incident events', () => {
  it('creates under the incident, lists its timeline in order, gets, updates with PUT, deletes answering the record', async () => {
    const { id: incidentId, attributes } = await incident('Timeline');
    const first = await post(incidentId, { event: 'Paged the on-call' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ type, attributes: { event: 'Paged the on-call', visibility: 'internal' } });
    expect(Date.parse(first.body.data.attributes.occurred_at)).not.toBeNaN();
    const second = await post(attributes.slug, { event: 'Status page updated', visibility: 'external' });
    expect(second.status).toBe(201);
    const other = await incident('Another timeline');
    await post(other.id, { event: 'Elsewhere' });

    const listed = await h.call('GET', `/v1/incidents/${incidentId}/events`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { attributes: { event: string } }) => e.attributes.event)).toEqual([
      'Paged the on-call',
      'Status page updated',
    ]);
    expect(listed.body.meta.total_count).toBe(2);

    const id = first.body.data.id;
    expect((await h.call('GET', `/v1/events/${id}`)).body.data.attributes.event).toBe('Paged the on-call');
    const updated = await h.call('PUT', `/v1/events/${id}`, { body: { data: { id, type, attributes: { visibility: 'external' } } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ event: 'Paged the on-call', visibility: 'external' });
    const deleted = await h.call('DELETE', `/v1/events/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type });
    expect((await h.call('GET', `/v1/events/${id}`)).status).toBe(404);

    const mine = () => h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => mine().length === 3);
    expect(mine().map((e) => e.routingKey)).toEqual(['incident_event.created', 'incident_event.updated', 'incident_event.deleted']);
  });

  it.each([
    ['no event', { visibility: 'internal' }, '/data/attributes/event'],
    ['a blank event', { event: '  ' }, '/data/attributes/event'],
    ['an unknown visibility', { event: 'x', visibility: 'public' }, '/data/attributes/visibility'],
    ['an attribute the reference has not', { event: 'x', occurred_at: '2026-01-01T00:00:00Z' }, '/data/attributes/occurred_at'],
  ])('refuses %s with a 422 and writes nothing', async (_case, attributes, pointer) => {
    const { id } = await incident(`Bad event ${_case}`);
    const res = await post(id, attributes);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe(pointer);
    expect(await h.db.knex('incident_events').where({ incident_id: id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it("answers 404 for another team's incident as a parent and for its events", async () => {
    const theirs = await incident('Their timeline', { team_id: 2 });
    const theirEvent = (await post(theirs.id, { event: 'Theirs' }, { team_id: 2 })).body.data.id;
    expect((await post(theirs.id, { event: 'Mine' })).status).toBe(404);
    expect((await h.call('GET', `/v1/incidents/${theirs.id}/events`)).status).toBe(404);
    expect((await h.call('GET', `/v1/incidents/${randomUUID()}/events`)).status).toBe(404);
    expect((await h.call('GET', `/v1/events/${theirEvent}`)).status).toBe(404);
    expect((await h.call('PUT', `/v1/events/${theirEvent}`, { body: { data: { type, attributes: { event: 'x' } } } })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/events/${theirEvent}`)).status).toBe(404);
    expect((await h.call('GET', '/v1/events/not-a-uuid')).status).toBe(404);
    expect(await h.db.knex('incident_events').where({ incident_id: theirs.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('goes with its incident', async () => {
    const { id } = await incident('Deleted with events');
    const event = (await post(id, { event: 'Soon gone' })).body.data.id;
    expect((await h.call('DELETE', `/v1/incidents/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/events/${event}`)).status).toBe(404);
  });
});
