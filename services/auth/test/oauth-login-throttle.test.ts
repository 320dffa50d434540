import { Redis } from 'ioredis';
import {
  LOOPBACK_REDIRECT,
  openInteraction,
  PASSWORD,
  postLogin,
  publicClientId,
  startOAuthHarness,
  type OAuthHarness,
  type RawReply,
} from './support/oauth-harness.js';

// Login throttling (docs/oauth.md). Each test plays its own client addresses (127.0.0.x),
// so their per-address budgets do not mix.
let h: OAuthHarness;
let clientId: string;
beforeAll(async () => {
  h = await startOAuthHarness({
    loginLimits: { accountFailures: 5, addressFailures: 12, lockMs: 2500 },
    passwordHashing: { concurrency: 1, queue: 1, waitMs: 100 },
  });
  clientId = await publicClientId(h.url);
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** One login attempt through a fresh interaction. */
async function attempt(email: string, password: string, from = '127.0.0.1'): Promise<RawReply> {
  const { jar, page } = await openInteraction(h.url, clientId);
  return postLogin(jar, page, { email, password }, from);
}

const signedIn = (r: RawReply) => r.status === 303 && /\/oauth\/authorize\//.test(String(r.headers.location));

describe('login throttling', () => {
  it('locks an account after 5 failures, from every address, with 429 and Retry-After, until the lock ends', async () => {
    const statuses: number[] = [];
    let last: RawReply | undefined;
    for (let i = 0; i < 20; i++) {
      last = await attempt(h.team.email, `wrong-${i}`, '127.0.0.2');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The locked answer reads like a wrong password; it does not confirm the account.
    expect(last!.html).toContain('Wrong email or password.');

    // Policy: the lock is the account's, so the right password from another address waits too.
    const elsewhere = await attempt(h.team.email, PASSWORD, '127.0.0.3');
    expect(elsewhere.status).toBe(429);
    await new Promise((r) => setTimeout(r, 2600));
    expect(signedIn(await attempt(h.team.email, PASSWORD, '127.0.0.3'))).toBe(true);
  });

  it('doubles the lock for an account locked again the same day', async () => {
    const lockOnce = async () => {
      for (let i = 0; i < 5; i++) expect((await attempt(h.otherTeam.email, 'wrong', '127.0.0.4')).status).toBe(401);
      return attempt(h.otherTeam.email, 'wrong', '127.0.0.4');
    };
    const first = await lockOnce();
    expect(first.status).toBe(429);
    expect(Number(first.headers['retry-after'])).toBe(3); // 2.5 s, rounded up
    await new Promise((r) => setTimeout(r, 2600));
    const second = await lockOnce();
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe(5);
  });

  it('refuses an address after its budget of failures across accounts, while other addresses still sign in', async () => {
    for (let i = 0; i < 12; i++) expect((await attempt(`nobody-${i}@nowhere.test`, 'wrong', '127.0.0.5')).status).toBe(401);
    const refused = await attempt(h.team.observerEmail, PASSWORD, '127.0.0.5');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(signedIn(await attempt(h.team.observerEmail, PASSWORD, '127.0.0.6'))).toBe(true);
  });

  it('allows 5 submissions per interaction; the 6th must start again', async () => {
    const { jar, page } = await openInteraction(h.url, clientId);
    for (let i = 0; i < 5; i++) {
      expect((await postLogin(jar, page, { email: `ghost-${i}@nowhere.test`, password: 'wrong' }, '127.0.0.7')).status).toBe(401);
    }
    const sixth = await postLogin(jar, page, { email: h.team.observerEmail, password: PASSWORD }, '127.0.0.7');
    expect(sixth.status).toBe(400);
    expect(sixth.html).toContain('start again');
  });

  it('caps concurrent password hashing: a burst gets 503 with Retry-After, never a 500, and nothing counts as a failure', async () => {
    const pages = await Promise.all(Array.from({ length: 8 }, () => openInteraction(h.url, clientId)));
    const replies = await Promise.all(
      pages.map(({ jar, page }, i) => postLogin(jar, page, { email: `burst-${i}@nowhere.test`, password: 'wrong' }, '127.0.0.8')),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toContain(503);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    expect(replies.find((r) => r.status === 503)!.headers['retry-after']).toBe('1');
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    try {
      const counted = await redis.zcard(`${h.redisPrefix}oauth:login:address:127.0.0.8`);
      expect(counted).toBe(replies.filter((r) => r.status === 401).length);
    } finally {
      redis.disconnect();
    }
  });

  it('has an index for the login lookup by email', async () => {
    const { rows } = await h.db.knex.raw(`SELECT indexdef FROM pg_indexes WHERE tablename = 'users' AND indexdef LIKE '%(email)'`);
    expect(rows).toHaveLength(1);
  });
});

describe('login throttling without Redis', () => {
  it('refuses logins with 503 (fails closed) instead of checking passwords unthrottled', async () => {
    const down = await startOAuthHarness({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      // Registration fails closed too, so the client is written straight into the store.
      const id = 'redis-down-client';
      await down.db.knex('oidc_payloads').insert({
        model: 'Client',
        id,
        payload: JSON.stringify({
          client_id: id,
          redirect_uris: [LOOPBACK_REDIRECT],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          scope: 'openid profile',
        }),
      });
      const { jar, page } = await openInteraction(down.url, id);
      const reply = await postLogin(jar, page, { email: down.team.email, password: PASSWORD });
      expect(reply.status).toBe(503);
      expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await down.close();
    }
  }, 30_000);
});
