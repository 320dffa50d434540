import { randomBytes } from 'node:crypto';
import { createActionLinks } from '../../src/domain/notifications/action-links.js';
import { createAlert, open, requestFor, startWithLinks, type LinkHarness } from './notifications.support.js';

let h: LinkHarness;

beforeAll(async () => {
  h = await startWithLinks();
});

afterAll(async () => h?.close());

const statusOf = async (id: unknown) => ((await h.knex('alerts').where({ id }).first()) as { status: string }).status;

describe('the signed action link endpoint', () => {
  it('answers an unknown or forged link 404 and an expired one 410, as pages that change nothing', async () => {
    const alert = await createAlert(h);
    const forged = await createActionLinks({ key: randomBytes(32), baseUrl: h.url }).url(requestFor(alert, 'email', 'x@y.test'), 'resolve');
    expect(await open(forged, 'POST')).toMatchObject({ status: 404, text: expect.stringContaining('This link is not valid.') });
    const bare = await fetch(`${h.url}/alert-actions`, { method: 'POST' });
    expect([bare.status, await bare.text()]).toEqual([404, expect.stringContaining('This link is not valid.')]);
    const past = createActionLinks({ key: h.keyBytes, baseUrl: h.url, now: () => new Date(Date.now() - 25 * 3600_000) });
    const old = await past.url(requestFor(alert, 'email', 'x@y.test'), 'resolve');
    const gone = await open(old, 'POST');
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('This link has expired.');
    expect(gone.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await statusOf(alert.id)).toBe('triggered');
  });

  it('leaves a link usable when the action is refused (acknowledging a resolved alert)', async () => {
    const alert = await createAlert(h);
    const request = requestFor(alert, 'email', 'x@y.test');
    const ack = await h.links.url(request, 'acknowledge');
    expect((await open(await h.links.url(request, 'resolve'), 'POST')).status).toBe(200);
    const refused = await open(ack, 'POST');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Cannot acknowledge resolved alert.');
    expect(await h.knex('alert_action_link_uses').where({ alert_id: alert.id })).toHaveLength(1);
    const preview = await open(ack);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('now resolved');
  });

  it("acts as the user's current self: a deleted user or an observer cannot, another team's alert is not found", async () => {
    const alert = await createAlert(h);
    const request = requestFor(alert, 'email', 'x@y.test');
    const ack = await h.links.url(request, 'acknowledge');
    await h.knex('users').where({ user_id: 11 }).update({ on_call_role: 'observer' });
    try {
      expect((await open(ack, 'POST')).status).toBe(403);
    } finally {
      await h.knex('users').where({ user_id: 11 }).update({ on_call_role: 'user' });
    }
    const elsewhere = await h.links.url({ ...request, team_id: 2, user: { ...request.user, user_id: 21 } }, 'acknowledge');
    expect((await open(elsewhere, 'POST')).status).toBe(404);
    expect((await open(elsewhere)).status).toBe(404);
    const gone = await h.links.url({ ...request, user: { ...request.user, user_id: 99 } }, 'acknowledge');
    expect(await open(gone, 'POST')).toMatchObject({ status: 404, text: expect.stringContaining('no longer exists') });
    expect(await statusOf(alert.id)).toBe('triggered');
    // Still usable once the user may act again.
    expect((await open(ack, 'POST')).status).toBe(200);
  });

  it('acts once when a link is used twice at the same time', async () => {
    const alert = await createAlert(h);
    const resolve = await h.links.url(requestFor(alert, 'email', 'x@y.test'), 'resolve');
    const answers = await Promise.all([open(resolve, 'POST'), open(resolve, 'POST'), open(resolve, 'POST')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await h.knex('alert_events').where({ alert_id: alert.id, action: 'resolved' })).toHaveLength(1);
  });
});
