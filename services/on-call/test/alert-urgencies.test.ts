import { randomUUID } from 'node:crypto';
import { MEDIA, startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_urgency.*' });
});

afterAll(async () => h?.close());

describe('alert urgencies', () => {
  it('creates, gets, updates with PUT, lists and deletes, each with its event', async () => {
    const created = await h.create('alert_urgencies', { name: 'High', description: 'Wake someone up' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain(MEDIA);
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({ name: 'High', description: 'Wake someone up', position: 1 });
    const low = await h.create('alert_urgencies', { name: 'Low', description: 'Tomorrow', position: null });
    expect(low.body.data.attributes.position).toBe(2);

    expect((await h.call('GET', `/v1/alert_urgencies/${id}`)).body.data.attributes.name).toBe('High');
    const updated = await h.call('PUT', `/v1/alert_urgencies/${id}`, {
      body: { data: { type: 'alert_urgencies', attributes: { position: 5 } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'High', position: 5 });
    expect(
      (await h.call('PATCH', `/v1/alert_urgencies/${id}`, { body: { data: { type: 'alert_urgencies', attributes: { position: 6 } } } }))
        .status,
    ).toBe(404);
    expect((await h.call('GET', `/v1/alert_urgencies/${id}`)).body.data.attributes.position).toBe(5);

    const list = await h.call('GET', '/v1/alert_urgencies');
    expect(list.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['Low', 'High']);
    expect(list.body.meta).toMatchObject({ total_count: 2 });
    expect((await h.call('GET', '/v1/alert_urgencies?filter[name][eq]=Low')).body.data).toHaveLength(1);

    const deleted = await h.call('DELETE', `/v1/alert_urgencies/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'alert_urgencies' });
    expect((await h.call('GET', `/v1/alert_urgencies/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['alert_urgency.created', 'alert_urgency.updated', 'alert_urgency.deleted']);
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    expect((await h.create('alert_urgencies', { name: 'No description' })).status).toBe(422);
    expect((await h.create('alert_urgencies', { name: 'X', description: 'd', color: 'red' })).status).toBe(422);
    expect((await h.create('alert_urgencies', { name: '', description: 'd' })).status).toBe(422);
    await h.create('alert_urgencies', { name: 'Critical', description: 'd' });
    const dup = await h.create('alert_urgencies', { name: 'critical', description: 'd' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source.pointer).toBe('/data/attributes/name');
    expect((await h.call('GET', `/v1/alert_urgencies/${randomUUID()}`)).status).toBe(404);
    expect((await h.call('GET', '/v1/alert_urgencies/not-a-uuid')).status).toBe(404);
    const list = await h.call('GET', '/v1/alert_urgencies?filter[search]=critical');
    expect(list.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['Critical']);
  });

  it("puts an urgency without position after the team's last, at most 1 000 000 (a position it can be written back with)", async () => {
    const team = { principal: { team_id: 31 } };
    expect((await h.create('alert_urgencies', { name: 'Last', description: 'd', position: 1_000_000 }, team)).status).toBe(201);
    const after = await h.create('alert_urgencies', { name: 'After', description: 'd' }, team);
    expect(after.status).toBe(201);
    expect(after.body.data.attributes.position).toBe(1_000_000);
    const { name, description, position } = after.body.data.attributes;
    const back = await h.call('PUT', `/v1/alert_urgencies/${after.body.data.id}`, {
      ...team,
      body: { data: { type: 'alert_urgencies', attributes: { name, description, position } } },
    });
    expect(back.status).toBe(200);
    // Same position: listed by creation.
    expect(
      (await h.call('GET', '/v1/alert_urgencies', team)).body.data.map((u: { attributes: { name: string } }) => u.attributes.name),
    ).toEqual(['Last', 'After']);
  });

  it("hides another team's urgencies", async () => {
    const mine = await h.create('alert_urgencies', { name: 'Team one only', description: 'd' });
    expect((await h.call('GET', `/v1/alert_urgencies/${mine.body.data.id}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/alert_urgencies/${mine.body.data.id}`, { principal: { team_id: 2 } })).status).toBe(404);
  });
});

describe('alert urgencies in use', () => {
  it('refuses to delete an urgency a group condition names, with 422 in_use naming the group', async () => {
    const urgency = (await h.create('alert_urgencies', { name: 'Named', description: 'd' })).body.data.id;
    const group = await h.create('alert_groups', {
      name: 'Uses it',
      conditions: [
        {
          property_field_type: 'attribute',
          property_field_name: 'alert_urgency',
          property_field_condition_type: 'is_not_one_of',
          alert_urgency_ids: [urgency],
        },
      ],
    });
    const refused = await h.call('DELETE', `/v1/alert_urgencies/${urgency}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: 'in_use', detail: expect.stringContaining('Uses it') });
    expect((await h.call('GET', `/v1/alert_urgencies/${urgency}`)).status).toBe(200);
    await h.call('PATCH', `/v1/alert_groups/${group.body.data.id}`, {
      body: { data: { type: 'alert_groups', attributes: { conditions: [] } } },
    });
    expect((await h.call('DELETE', `/v1/alert_urgencies/${urgency}`)).status).toBe(200);
  });
});

describe('alert urgencies under concurrent writes', () => {
  it('a delete racing a write that names the urgency waits for it, then refuses (no condition is left naming a deleted urgency)', async () => {
    const { createAlertUrgenciesRepository } = await import('../src/data/alert-urgencies.repository.js');
    const urgency = (await h.create('alert_urgencies', { name: 'Raced', description: 'd' })).body.data.id;
    const trx = await h.db.knex.transaction();
    // What an alert group write does: check the urgency, then store a condition naming it.
    expect(await createAlertUrgenciesRepository().existingIds(trx as never, 1, [urgency])).toEqual(new Set([urgency]));
    const [group] = await trx('alert_groups')
      .insert({ team_id: 1, name: 'Racer', slug: 'racer', condition_type: 'all', time_window: 60 })
      .returning('id');
    await trx('alert_group_conditions').insert({
      alert_group_id: group.id,
      position: 0,
      property_field_type: 'attribute',
      property_field_name: 'alert_urgency',
      property_field_condition_type: 'is_one_of',
      alert_urgency_ids: JSON.stringify([urgency]),
    });
    let settled = false;
    const deleting = h.call('DELETE', `/v1/alert_urgencies/${urgency}`).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    await trx.commit();
    const refused = await deleting;
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].detail).toContain('Racer');
  });
});
