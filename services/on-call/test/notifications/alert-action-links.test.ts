import { createAlert, open, requestFor, startWithLinks, type LinkHarness } from './notifications.support.js';

let h: LinkHarness;

beforeAll(async () => {
  h = await startWithLinks();
});

afterAll(async () => h?.close());

const statusOf = async (id: unknown) => ((await h.knex('alerts').where({ id }).first()) as { status: string }).status;

describe('the signed action link endpoint', () => {
  it('answers an unknown or malformed link 404 and an expired one 410, as pages that change nothing', async () => {
    const alert = await createAlert(h);
    for (const unknown of [`${h.url}/alert-actions/${'A'.repeat(22)}`, `${h.url}/alert-actions/not-a-link`])
      expect(await open(unknown, 'POST')).toMatchObject({ status: 404, text: expect.stringContaining('This link is not valid.') });
    const bare = await fetch(`${h.url}/alert-actions`, { method: 'POST' });
    expect([bare.status, await bare.text()]).toEqual([404, expect.stringContaining('This link is not valid.')]);
    const old = await h.linksAt(new Date(Date.now() - 25 * 3600_000)).url(requestFor(alert, 'email', 'x@y.test'), 'resolve');
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
    expect(await h.knex('alert_action_links').where({ alert_id: alert.id }).whereNotNull('used_at')).toHaveLength(1);
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

  it('records the paging it stops as stopped from the link (source email), as the acknowledge itself', async () => {
    const alert = await createAlert(h, { notification_target_type: 'User', notification_target_id: '11' });
    expect(await h.knex('alert_pagings').where({ alert_id: alert.id, state: 'active' })).toHaveLength(1);
    expect((await open(await h.links.url(requestFor(alert, 'email', 'x@y.test'), 'acknowledge'), 'POST')).status).toBe(200);
    const events = await h.knex('alert_events').where({ alert_id: alert.id }).orderBy('created_at');
    const stopped = events.filter((e) => String(e.details).startsWith('Paging stopped (acknowledged)'));
    expect(stopped.map((e) => [e.source, e.user_id])).toEqual([['email', 11]]);
    expect(events.filter((e) => e.action === 'acknowledged').map((e) => e.source)).toEqual(['email']);
  });

  it('records the channel the link was sent on as the source: sms, voice, email', async () => {
    for (const channel of ['sms', 'voice', 'email'] as const) {
      const alert = await createAlert(h, { notification_target_type: 'User', notification_target_id: '11' });
      expect((await open(await h.links.url(requestFor(alert, channel, 'x@y.test'), 'acknowledge'), 'POST')).status).toBe(200);
      const events = await h.knex('alert_events').where({ alert_id: alert.id }).orderBy('created_at');
      expect(events.filter((e) => e.action === 'acknowledged').map((e) => e.source)).toEqual([channel]);
      const stopped = events.filter((e) => String(e.details).startsWith('Paging stopped (acknowledged)'));
      expect(stopped.map((e) => e.source)).toEqual([channel]);
    }
  });

  it('acts once when a link is used twice at the same time', async () => {
    const alert = await createAlert(h);
    const resolve = await h.links.url(requestFor(alert, 'email', 'x@y.test'), 'resolve');
    const answers = await Promise.all([open(resolve, 'POST'), open(resolve, 'POST'), open(resolve, 'POST')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await h.knex('alert_events').where({ alert_id: alert.id, action: 'resolved' })).toHaveLength(1);
    expect(await open(resolve)).toMatchObject({ status: 409, text: expect.stringContaining('already used') });
  });

  it('keeps only digests, and clears links long expired as new ones are made', async () => {
    const alert = await createAlert(h);
    const request = requestFor(alert, 'sms', '+14155550100');
    const stale = await h.linksAt(new Date(Date.now() - 9 * 24 * 3600_000)).url(request, 'acknowledge');
    const recent = await h.linksAt(new Date(Date.now() - 2 * 24 * 3600_000)).url(request, 'acknowledge');
    const fresh = await h.links.url(request, 'acknowledge');
    expect((await open(stale)).status).toBe(404);
    expect((await open(recent)).status).toBe(410);
    const rows = await h.knex('alert_action_links').where({ alert_id: alert.id });
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(fresh.slice(fresh.lastIndexOf('/') + 1));
  });
});
