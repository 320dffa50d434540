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
  const inserts: number[] = [];
  const store: ActionLinkStore = {
    async insert(links) {
      inserts.push(links.length);
      for (const link of links) rows.set(link.token_digest.toString('hex'), { ...link, used_at: null });
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
  return { store, rows, finds: () => finds, inserts };
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('action links', () => {
  it('stores both links of the notifications made together in one statement, each opening its own action', async () => {
    const { store, inserts } = memoryStore();
    const links = createActionLinks({ store, baseUrl: 'https://fw.example' });
    const made = await Promise.all(['a1', 'a2', 'a3'].map((attempt_id) => links.urls({ ...request, attempt_id })));
    expect(inserts).toEqual([6]);
    for (const [i, urls] of made.entries()) {
      for (const action of ['acknowledge', 'resolve'] as const) {
        const opened = await links.open(tokenOf(urls[action]));
        expect(opened.ok && [opened.link.attempt_id, opened.link.action]).toEqual([`a${i + 1}`, action]);
      }
    }
  });

  it('stores the links of a batch that failed notification by notification, so one cannot cost the others theirs', async () => {
    const { store, inserts } = memoryStore();
    const insert = store.insert;
    store.insert = async (rows) => (rows.some((r) => r.attempt_id === 'bad') ? Promise.reject(new Error('bad row')) : insert(rows));
    const links = createActionLinks({ store, baseUrl: 'https://fw.example' });
    const made = await Promise.allSettled(['a1', 'bad', 'a3'].map((attempt_id) => links.urls({ ...request, attempt_id })));
    expect(made.map((m) => m.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(inserts).toEqual([2, 2]);
  });

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
