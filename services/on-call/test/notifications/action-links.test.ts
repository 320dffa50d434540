import { createHash } from 'node:crypto';
import { createActionLinks, type ActionLinkStore, type StoredLink } from '../../src/domain/notifications/action-links.js';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';

const request = {
  team_id: 3,
  alert: { id: 'a1b2c3d4-0000-4000-8000-000000000001' },
  user: { user_id: 42, name: 'Ada', email: 'ada@example.test', time_zone: 'Etc/UTC' },
  channel: 'sms',
  address: '+14155550100',
  contact_method_id: null,
  attempt_id: 'attempt-9',
  notification_type: 'audible',
} as NotificationRequest;

/** The links' table in memory, keyed as the real one is: by the token's digest. */
function memoryStore() {
  const rows = new Map<string, StoredLink>();
  let finds = 0;
  const store: ActionLinkStore = {
    async insert(link) {
      rows.set(link.token_digest.toString('hex'), { ...link, used_at: null });
    },
    async find(digest) {
      finds++;
      return rows.get(digest.toString('hex')) ?? null;
    },
    async claim(_tx, digest, at) {
      const row = rows.get(digest.toString('hex'));
      if (!row || row.used_at) return false;
      row.used_at = at;
      return true;
    },
  };
  return { store, rows, finds: () => finds };
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('action links', () => {
  it('are short opaque tokens (128 random bits), kept only as their SHA-256 with what they do', async () => {
    const { store, rows } = memoryStore();
    const now = new Date('2026-11-26T10:00:00Z');
    const links = createActionLinks({ store, baseUrl: 'https://fw.example', now: () => now });
    const url = await links.url(request, 'resolve');
    expect(url).toMatch(/^https:\/\/fw\.example\/alert-actions\/[A-Za-z0-9_-]{22}$/);
    const token = tokenOf(url);
    const [row] = [...rows.values()];
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token_digest: createHash('sha256').update(token).digest(),
      team_id: 3,
      alert_id: request.alert.id,
      user_id: 42,
      action: 'resolve',
      channel: 'sms',
      attempt_id: 'attempt-9',
      expires_at: new Date('2026-11-27T10:00:00Z'),
      used_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(tokenOf(await links.url(request, 'resolve'))).not.toBe(token);
  });

  it('open to what they do, once: unknown and malformed are invalid, then expired, then used', async () => {
    const { store, finds } = memoryStore();
    let now = new Date('2026-11-26T10:00:00Z');
    const links = createActionLinks({ store, baseUrl: 'https://fw.example', ttlSeconds: 60, now: () => now });
    const token = tokenOf(await links.url(request, 'acknowledge'));
    const opened = await links.open(token);
    expect(opened).toMatchObject({ ok: true, link: { action: 'acknowledge', user_id: 42, team_id: 3 } });
    expect(await links.open('A'.repeat(22))).toEqual({ ok: false, problem: 'invalid' });
    const looked = finds();
    for (const bad of ['', 'short', `${token}x`, `${token.slice(0, 21)}.`, 'a.b.c'])
      expect(await links.open(bad)).toEqual({ ok: false, problem: 'invalid' });
    expect(finds()).toBe(looked); // a malformed token is refused without a look-up
    expect(opened.ok && (await links.claim({} as never, opened.link))).toBe(true);
    expect(await links.open(token)).toEqual({ ok: false, problem: 'used' });
    expect(opened.ok && (await links.claim({} as never, opened.link))).toBe(false);
    const later = tokenOf(await links.url(request, 'resolve'));
    now = new Date('2026-11-26T10:01:01Z');
    expect(await links.open(later)).toEqual({ ok: false, problem: 'expired' });
  });
});
