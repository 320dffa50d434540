import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_event.*' });
});

afterAll(async () => h?.close());

const note = (attributes: Record<string, unknown>) => ({ body: { data: { type: 'alert_events', attributes } } });
const anAlert = async () => (await h.create('alerts', { summary: `Disk full ${Math.random()}` })).body.data.id as string;
const addNote = (alertId: string, attributes: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  h.call('POST', `/v1/alerts/${alertId}/events`, { ...note(attributes), ...options });

describe('alert notes and the alert events feed', () => {
  it("adds a note to an alert's timeline by its writer, edits and deletes it, with alert_event events", async () => {
    const alertId = await anAlert();
    const created = await addNote(alertId, { kind: 'note', details: 'Looking at the disk now.' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.attributes).toMatchObject({
      alert_id: alertId,
      kind: 'note',
      action: 'created',
      source: 'api',
      user_id: 1,
      details: 'Looking at the disk now.',
    });
    const timeline = (await h.call('GET', `/v1/alerts/${alertId}/events?filter[kind]=note`)).body.data;
    expect(timeline.map((e: { id: string }) => e.id)).toEqual([id]);

    const edited = await h.call('PATCH', `/v1/alert_events/${id}`, note({ details: 'Disk cleaned.' }));
    expect(edited.status).toBe(200);
    expect(edited.body.data.attributes.details).toBe('Disk cleaned.');
    const removed = await h.call('DELETE', `/v1/alert_events/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBeUndefined();
    expect((await h.call('GET', `/v1/alert_events/${id}`)).status).toBe(404);
    await h.events!.waitFor((es) =>
      ['alert_event.created', 'alert_event.updated', 'alert_event.deleted'].every((t) =>
        es.some((e) => e.body.type === t && (e.body.data as { id: string }).id === id),
      ),
    );
  });

  it('keeps every other event as the audit trail: PATCH and DELETE of one are 422, and nothing changes', async () => {
    const alertId = await anAlert();
    const [created] = (await h.call('GET', `/v1/alerts/${alertId}/events?filter[action]=created`)).body.data;
    const patched = await h.call('PATCH', `/v1/alert_events/${created.id}`, note({ details: 'rewritten' }));
    expect(patched.status).toBe(422);
    expect(patched.body.errors[0]).toMatchObject({ code: 'not_a_note' });
    const deleted = await h.call('DELETE', `/v1/alert_events/${created.id}`);
    expect(deleted.status).toBe(422);
    expect(deleted.body.errors[0].detail).toMatch(/audit trail/);
    expect((await h.call('GET', `/v1/alert_events/${created.id}`)).body.data.attributes.details).toBe(created.attributes.details);
  });

  it.each([
    ['another kind', { kind: 'informational', details: 'x' }, '/data/attributes/kind'],
    ['no details', { kind: 'note' }, '/data/attributes/details'],
    ['blank details', { kind: 'note', details: '   ' }, '/data/attributes/details'],
    ['details over 10 000 characters', { kind: 'note', details: 'x'.repeat(10_001) }, '/data/attributes/details'],
    ["another user's authorship", { kind: 'note', details: 'x', user_id: 99 }, '/data/attributes/user_id'],
    ['an action', { kind: 'note', details: 'x', action: 'resolved' }, '/data/attributes'],
  ])('refuses a note with %s: 422 at its attribute', async (_what, attributes, pointer) => {
    const answer = await addNote(await anAlert(), attributes);
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContainEqual(
      expect.stringContaining(pointer),
    );
  });

  it('lets only its author or an on-call admin edit or delete a note: another user, a team-wide key are 403', async () => {
    const alertId = await anAlert();
    const author = { principal: { user_id: 71, role: 'user', on_call_role: 'user' } };
    const { id } = (await addNote(alertId, { kind: 'note', details: 'Mine.' }, author)).body.data;
    const others = [
      { principal: { user_id: 72, role: 'admin', on_call_role: 'user' } },
      { principal: { user_id: null, role: 'user', on_call_role: 'user', credential: { type: 'api_key', id: 'k1', kind: 'global' } } },
    ];
    for (const other of others) {
      const patched = await h.call('PATCH', `/v1/alert_events/${id}`, { ...note({ details: 'Theirs.' }), ...other });
      expect([patched.status, patched.body.errors?.[0]?.code]).toEqual([403, 'not_note_author']);
      const deleted = await h.call('DELETE', `/v1/alert_events/${id}`, other);
      expect([deleted.status, deleted.body.errors?.[0]?.code]).toEqual([403, 'not_note_author']);
    }
    expect((await h.call('GET', `/v1/alert_events/${id}`)).body.data.attributes.details).toBe('Mine.');
    // The author may; so may an on-call admin (the default principal), who moderates the team's timeline.
    expect((await h.call('PATCH', `/v1/alert_events/${id}`, { ...note({ details: 'Mine, edited.' }), ...author })).status).toBe(200);
    expect((await h.call('PATCH', `/v1/alert_events/${id}`, note({ details: 'Moderated.' }))).status).toBe(200);
    expect((await h.call('DELETE', `/v1/alert_events/${id}`)).status).toBe(200);
  });

  it("lets a team-wide key change a note no user wrote (the team's), never a user's", async () => {
    const alertId = await anAlert();
    const key = (id: string) => ({
      principal: { user_id: null, role: 'user', on_call_role: 'user', credential: { type: 'api_key', id, kind: 'global' } },
    });
    const { id } = (await addNote(alertId, { kind: 'note', details: 'From the pipeline.' }, key('k1'))).body.data;
    expect((await h.call('PATCH', `/v1/alert_events/${id}`, { ...note({ details: 'Corrected.' }), ...key('k2') })).status).toBe(200);
    const user = { principal: { user_id: 73, role: 'user', on_call_role: 'user' } };
    const patched = await h.call('PATCH', `/v1/alert_events/${id}`, { ...note({ details: 'Mine now.' }), ...user });
    expect([patched.status, patched.body.errors?.[0]?.code]).toEqual([403, 'not_note_author']);
    expect((await h.call('DELETE', `/v1/alert_events/${id}`, key('k1'))).status).toBe(200);
  });

  it("hides another team's alert and notes, and needs oc.alerts write to note", async () => {
    const alertId = await anAlert();
    const { id } = (await addNote(alertId, { kind: 'note', details: 'mine' })).body.data;
    const other = { principal: { team_id: 2 } };
    expect((await addNote(alertId, { kind: 'note', details: 'theirs' }, other)).status).toBe(404);
    expect((await h.call('PATCH', `/v1/alert_events/${id}`, { ...note({ details: 'x' }), ...other })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/alert_events/${id}`, other)).status).toBe(404);
    expect((await h.call('GET', `/v1/alert_events?filter[alert_id]=${alertId}`, other)).body.data).toEqual([]);
    const reader = { principal: { scopes: ['oc.alerts:read'] } };
    expect((await addNote(alertId, { kind: 'note', details: 'read only' }, reader)).status).toBe(403);
    expect((await h.call('GET', `/v1/alert_events?filter[alert_id]=${alertId}`, reader)).status).toBe(200);
  });

  it('feeds every alert event of the team, filtered by alert, kind, action and time, cursor page after cursor page', async () => {
    const a = await anAlert();
    const b = await anAlert();
    await addNote(a, { kind: 'note', details: 'one' });
    await addNote(b, { kind: 'note', details: 'two' });
    await h.call('POST', `/v1/alerts/${a}/acknowledge`, { body: { data: { type: 'alerts' } } });
    const ofA = (await h.call('GET', `/v1/alert_events?filter[alert_id]=${a}`)).body.data as { attributes: Record<string, unknown> }[];
    expect(ofA.map((e) => [e.attributes.kind, e.attributes.action])).toEqual([
      ['informational', 'created'],
      ['note', 'created'],
      ['status_update', 'acknowledged'],
    ]);
    const notes = (
      await h.call('GET', `/v1/alert_events?filter[kind]=note&filter[created_at][gte]=${new Date(Date.now() - 60_000).toISOString()}`)
    ).body.data as { attributes: { alert_id: string } }[];
    expect(notes.map((e) => e.attributes.alert_id)).toEqual(expect.arrayContaining([a, b]));
    expect((await h.call('GET', `/v1/alert_events?filter[action]=acknowledged&filter[alert_id]=${b}`)).body.data).toEqual([]);

    // Streaming forward: page[after] with each page's cursor walks the feed once, in order.
    const seen: string[] = [];
    let query = `filter[alert_id]=${a}&page[size]=1`;
    for (let i = 0; i < 5; i++) {
      const page = await h.call('GET', `/v1/alert_events?${query}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((e: { id: string }) => e.id));
      const next = page.body.meta.next_cursor as string | null;
      if (!next) break;
      query = `filter[alert_id]=${a}&page[size]=1&page[after]=${encodeURIComponent(next)}`;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });
});
