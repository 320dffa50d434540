import { type OnCallHarness } from './support/on-call-harness.js';
import { createRotation, doc, pointers, startWithUsers } from './support/schedules.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startWithUsers();
});
afterAll(async () => h?.close());

const rotation = () => createRotation(h);

describe('override shifts', () => {
  const override = (scheduleId: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
    h.call('POST', `/v1/schedules/${scheduleId}/override_shifts`, { ...doc('shifts', attributes), principal });

  it('creates as type shifts, lists by start, changes the user with PUT and deletes, with override_shift events', async () => {
    const { scheduleId } = await rotation();
    const later = await override(scheduleId, { starts_at: '2026-12-31T18:00:00+01:00', ends_at: '2027-01-01T09:00:00+01:00', user_id: 12 });
    const sooner = await override(scheduleId, { starts_at: '2026-12-24T08:00:00Z', ends_at: '2026-12-24T20:00:00Z', user_id: 11 });
    expect([later.status, sooner.status]).toEqual([201, 201]);
    expect(later.body.data).toMatchObject({
      type: 'shifts',
      attributes: {
        schedule_id: scheduleId,
        rotation_id: null,
        starts_at: '2026-12-31T17:00:00.000Z',
        ends_at: '2027-01-01T08:00:00.000Z',
        is_override: true,
        user_id: 12,
      },
    });
    const list = await h.call('GET', `/v1/schedules/${scheduleId}/override_shifts?include=user`);
    expect(list.body.included.map((u: { id: string }) => u.id).sort()).toEqual(['11', '12']);
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([sooner.body.data.id, later.body.data.id]);
    const id = later.body.data.id;
    const put = await h.call('PUT', `/v1/override_shifts/${id}`, doc('shifts', { user_id: 14 }));
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({ user_id: 14, starts_at: '2026-12-31T17:00:00.000Z' });
    expect((await h.call('PUT', `/v1/override_shifts/${id}`, doc('shifts', { starts_at: '2026-12-31T18:00:00Z' }))).status).toBe(422);
    expect((await h.call('PUT', `/v1/override_shifts/${id}`, doc('shifts', { user_id: 21 }))).status).toBe(422);
    expect((await h.call('DELETE', `/v1/override_shifts/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/override_shifts/${id}`)).status).toBe(404);
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'override_shift.created',
      'override_shift.updated',
      'override_shift.deleted',
    ]);
  });

  it('refuses reversed, too long, overlapping or malformed overrides and users outside the team', async () => {
    const { scheduleId } = await rotation();
    expect((await override(scheduleId, { starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-02T00:00:00Z', user_id: 11 })).status).toBe(
      201,
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ starts_at: '2026-12-05T00:00:00Z', ends_at: '2026-12-05T00:00:00Z', user_id: 11 }, '/data/attributes/ends_at'],
      [{ starts_at: '2026-12-06T00:00:00Z', ends_at: '2026-12-05T00:00:00Z', user_id: 11 }, '/data/attributes/ends_at'],
      [{ starts_at: '2027-01-01T00:00:00Z', ends_at: '2027-02-01T00:00:01Z', user_id: 11 }, '/data/attributes/ends_at'],
      [{ starts_at: '2026-12-01T23:00:00Z', ends_at: '2026-12-02T01:00:00Z', user_id: 12 }, '/data/attributes/starts_at'],
      [{ starts_at: '2026-11-30T00:00:00Z', ends_at: '2026-12-03T00:00:00Z', user_id: 12 }, '/data/attributes/starts_at'],
      [{ starts_at: '2026-12-10', ends_at: '2026-12-11T00:00:00Z', user_id: 11 }, '/data/attributes/starts_at'],
      [{ starts_at: '0000-01-01T00:00:00Z', ends_at: '0000-01-02T00:00:00Z', user_id: 11 }, '/data/attributes/starts_at'],
      [{ starts_at: '2026-12-10T00:00:00', ends_at: '2026-12-11T00:00:00Z', user_id: 11 }, '/data/attributes/starts_at'],
      [{ ends_at: '2026-12-11T00:00:00Z', user_id: 11 }, '/data/attributes/starts_at'],
      [{ starts_at: '2026-12-10T00:00:00Z', ends_at: '2026-12-11T00:00:00Z' }, '/data/attributes/user_id'],
      [{ starts_at: '2026-12-10T00:00:00Z', ends_at: '2026-12-11T00:00:00Z', user_id: 21 }, '/data/attributes/user_id'],
      [{ starts_at: '2026-12-10T00:00:00Z', ends_at: '2026-12-11T00:00:00Z', user_id: 13 }, '/data/attributes/user_id'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await override(scheduleId, attributes);
      expect([JSON.stringify(attributes), res.status]).toEqual([JSON.stringify(attributes), 422]);
      expect(pointers(res)).toContain(pointer);
    }
    // Touching ends are no overlap.
    expect((await override(scheduleId, { starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-03T00:00:00Z', user_id: 12 })).status).toBe(
      201,
    );
    expect((await h.call('GET', `/v1/schedules/${scheduleId}/override_shifts`)).body.meta.total_count).toBe(2);
  });

  it('lets only one of racing overlapping overrides in', async () => {
    const { scheduleId } = await rotation();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        override(scheduleId, { starts_at: `2026-12-10T0${i}:00:00Z`, ends_at: '2026-12-10T12:00:00Z', user_id: 11 }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
  });

  it("needs oc.shift_overrides, and hides another team's schedule", async () => {
    const { scheduleId } = await rotation();
    const body = { starts_at: '2026-12-10T00:00:00Z', ends_at: '2026-12-11T00:00:00Z', user_id: 11 };
    const oauth = (scopes: string[]) => ({ credential: { type: 'oauth', client_id: 'c' }, scopes });
    expect((await override(scheduleId, body, oauth(['oc.schedules:write', 'oc.schedules:read']))).status).toBe(403);
    expect((await override(scheduleId, body, { team_id: 2 })).status).toBe(404);
    const made = await override(scheduleId, body, oauth(['oc.shift_overrides:write', 'oc.shift_overrides:read', 'oc.schedules:read']));
    expect(made.status).toBe(201);
    expect((await h.call('GET', `/v1/override_shifts/${made.body.data.id}`, { principal: { team_id: 2 } })).status).toBe(404);
  });
});
