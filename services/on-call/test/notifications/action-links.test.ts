import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { createActionLinks } from '../../src/domain/notifications/action-links.js';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';

const key = randomBytes(32);
const request = {
  team_id: 3,
  alert: { id: 'a1b2c3d4-0000-4000-8000-000000000001' },
  user: { user_id: 42, name: 'Ada', email: 'ada@example.test', time_zone: 'Etc/UTC' },
  channel: 'email',
  address: 'ada@example.test',
  contact_method_id: null,
  attempt_id: 'attempt-9',
  notification_type: 'audible',
} as NotificationRequest;

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('signed action links', () => {
  it('name the team, alert, user, action and attempt, with a unique id and a 24 h expiry', async () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const links = createActionLinks({ key, baseUrl: 'https://fw.example', now: () => now });
    const url = await links.url(request, 'resolve');
    expect(url).toMatch(/^https:\/\/fw\.example\/alert-actions\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const verified = await links.verify(tokenOf(url));
    expect(verified).toEqual({
      ok: true,
      claims: {
        id: expect.stringMatching(/^[\w-]{22}$/),
        team_id: 3,
        alert_id: request.alert.id,
        user_id: 42,
        action: 'resolve',
        attempt_id: 'attempt-9',
        expires_at: new Date('2026-11-27T10:00:00Z'),
      },
    });
    const again = await links.verify(tokenOf(await links.url(request, 'resolve')));
    expect(again.ok && verified.ok && again.claims.id !== verified.claims.id).toBe(true);
  });

  it('expire', async () => {
    let now = new Date('2026-11-26T10:00:00Z');
    const links = createActionLinks({ key, baseUrl: 'https://fw.example', ttlSeconds: 60, now: () => now });
    const token = tokenOf(await links.url(request, 'acknowledge'));
    now = new Date('2026-11-26T10:00:59Z');
    expect((await links.verify(token)).ok).toBe(true);
    now = new Date('2026-11-26T10:01:01Z');
    expect(await links.verify(token)).toEqual({ ok: false, problem: 'expired' });
  });

  it('refuse another key, a changed payload, another algorithm and garbage', async () => {
    const links = createActionLinks({ key, baseUrl: 'https://fw.example' });
    const token = tokenOf(await links.url(request, 'acknowledge'));
    const other = createActionLinks({ key: randomBytes(32), baseUrl: 'https://fw.example' });
    expect(await other.verify(token)).toEqual({ ok: false, problem: 'invalid' });
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, act: 'resolve' })).toString('base64url');
    expect(await links.verify(`${header}.${forged}.${signature}`)).toEqual({ ok: false, problem: 'invalid' });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await links.verify(none)).toEqual({ ok: false, problem: 'invalid' });
    expect(await links.verify('not-a-token')).toEqual({ ok: false, problem: 'invalid' });
  });

  it('refuse a token signed with the key for something else (no audience, or an unknown action)', async () => {
    const links = createActionLinks({ key, baseUrl: 'https://fw.example' });
    const plain = await new SignJWT({ team: 3, alert: 'x', act: 'acknowledge', att: 'a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('42')
      .setJti('j')
      .setExpirationTime('1h')
      .sign(key);
    expect(await links.verify(plain)).toEqual({ ok: false, problem: 'invalid' });
    const deleteAction = await new SignJWT({ team: 3, alert: 'x', act: 'delete', att: 'a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('fw-link')
      .setSubject('42')
      .setJti('j')
      .setExpirationTime('1h')
      .sign(key);
    expect(await links.verify(deleteAction)).toEqual({ ok: false, problem: 'invalid' });
  });
});
