import { createSystemTokens } from '@firewatch/auth';
import { signAsGateway } from '@firewatch/testing';
import { operator } from '../src/domain/credential-bounds.rules.js';
import { createGroup, newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function createKey(attributes: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const res = await h.request('POST', '/v1/api_keys', { body: newKey(attributes) });
  expect(res.status).toBe(201);
  return { id: res.body.data.id, token: res.body.data.attributes.token };
}

describe('POST /internal/credentials/resolve', () => {
  it('resolves a global key to a team-wide principal with its rate limits', async () => {
    const { id, token } = await createKey({ name: 'ci', role: 'observer', on_call_role: 'user', capabilities: ['read'] });
    const res = await h.resolve(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      principal: {
        team_id: h.team.id,
        user_id: null,
        role: 'observer',
        on_call_role: 'user',
        credential: { type: 'api_key', id, kind: 'global', expires_at: null },
        capabilities: ['read'],
        scopes: null,
        group_ids: null,
        record_ids: null,
      },
      rate_limits: { read: null, write: null },
    });
  });

  it('carries group and record lists, and per-key limits set by an operator', async () => {
    const groups = [await createGroup(h, 'Resolved one'), await createGroup(h, 'Resolved two')];
    const group = await createKey({ kind: 'team', group_ids: groups });
    expect((await h.resolve(group.token)).body.principal).toMatchObject({
      group_ids: groups,
      record_ids: null,
      credential: { kind: 'group' },
    });
    const record = await createKey({ kind: 'record', record_ids: ['r1'] });
    await h.services.apiKeys.setRateLimits(h.team.id, record.id, { rate_limit_read: 50, rate_limit_write: 7 });
    const res = await h.resolve(record.token);
    expect(res.body.principal).toMatchObject({ record_ids: ['r1'], group_ids: null });
    expect(res.body.rate_limits).toEqual({ read: 50, write: 7 });
  });

  it("maps a personal key to its user with the user's current roles", async () => {
    // An operator (CLI) may issue a personal key to any user of a team; the API only to oneself.
    const { token } = await h.services.apiKeys.create(operator(h.team.id), { name: 'p', kind: 'personal', user_id: h.team.userId });
    let res = await h.resolve(token);
    expect(res.body.principal).toMatchObject({ user_id: h.team.userId, role: 'user', on_call_role: 'user' });
    // A demotion applies on the next resolve, without touching the key.
    await h.db.knex('users').where({ id: h.team.userId }).update({ role: 'observer', on_call_role: 'observer' });
    res = await h.resolve(token);
    expect(res.body.principal).toMatchObject({ user_id: h.team.userId, role: 'observer', on_call_role: 'observer' });
    await h.db.knex('users').where({ id: h.team.userId }).update({ role: 'user', on_call_role: 'user' });
  });

  it('defaults a personal key to the calling user', async () => {
    const { token } = await createKey({ kind: 'personal' });
    expect((await h.resolve(token)).body.principal).toMatchObject({ user_id: h.team.adminId, role: 'admin' });
  });

  it.each([
    ['unknown key', 'fwk_AAAAAAAAAA_' + 'x'.repeat(43)],
    ['malformed key', 'fwk_short'],
    ['empty token', ''],
    ['OAuth-looking token (no OAuth server yet)', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'],
  ])('answers 401 for: %s', async (_label, token) => {
    const res = await h.resolve(token);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body.errors[0]).toMatchObject({ status: '401', code: 'invalid_credential' });
  });

  it('answers 401 for a right prefix with a wrong secret', async () => {
    const { token } = await createKey({});
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await h.resolve(forged)).status).toBe(401);
    expect((await h.resolve(token)).status).toBe(200);
  });

  it('answers 401 once the key is revoked', async () => {
    const { id, token } = await createKey({});
    expect((await h.resolve(token)).status).toBe(200);
    expect((await h.request('DELETE', `/v1/api_keys/${id}`)).status).toBe(200);
    expect((await h.resolve(token)).status).toBe(401);
  });

  it('answers 401 once the key has expired', async () => {
    const { id, token } = await createKey({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await h.resolve(token)).status).toBe(200);
    await h.db
      .knex('api_keys')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await h.resolve(token)).status).toBe(401);
  });

  it('refuses callers without a valid system token', async () => {
    const { token } = await createKey({});
    const missing = await h.resolve(token, null);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].code).toBe('invalid_system_token');
    expect((await h.resolve(token, 'not-a-jwt')).status).toBe(401);
    const foreign = await createSystemTokens('another-secret-of-at-least-32-characters!!').sign('gateway');
    expect((await h.resolve(token, foreign)).status).toBe(401);
    // A principal token is not a system token either.
    const principal = await signAsGateway((await h.resolve(token)).body.principal, 'auth', 'POST', '/internal/credentials/resolve');
    expect((await h.resolve(token, principal)).status).toBe(401);
  });

  it('answers 400 when the body has no token', async () => {
    const res = await fetch(`${h.url}/internal/credentials/resolve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await h.systemTokens.sign('gateway')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ nope: 1 }),
    });
    expect(res.status).toBe(400);
  });

  it('records last use at most once a minute', async () => {
    const { id, token } = await createKey({});
    await h.resolve(token);
    const first = (await h.db.knex('api_keys').where({ id }).first()).last_used_at as Date;
    expect(first).toBeInstanceOf(Date);
    await h.resolve(token);
    const second = (await h.db.knex('api_keys').where({ id }).first()).last_used_at as Date;
    expect(second.getTime()).toBe(first.getTime());
    await h.db
      .knex('api_keys')
      .where({ id })
      .update({ last_used_at: new Date(Date.now() - 61_000) });
    await h.resolve(token);
    const third = (await h.db.knex('api_keys').where({ id }).first()).last_used_at as Date;
    expect(Date.now() - third.getTime()).toBeLessThan(10_000);
    const shown = await h.request('GET', `/v1/api_keys/${id}`);
    expect(shown.body.data.attributes.last_used_at).toBe(third.toISOString());
  });

  describe('rotation', () => {
    it('refuses the old token at once by default', async () => {
      const { id, token } = await createKey({});
      const res = await h.request('POST', `/v1/api_keys/${id}/rotate`);
      expect(res.status).toBe(200);
      const fresh = res.body.data.attributes.token;
      expect(fresh).not.toBe(token);
      expect(res.body.data.attributes.grace_period_ends_at).toBeNull();
      expect((await h.resolve(token)).status).toBe(401);
      expect((await h.resolve(fresh)).body.principal.credential.id).toBe(id);
    });

    it('keeps the old token working until the grace period ends', async () => {
      const { id, token } = await createKey({});
      const res = await h.request('POST', `/v1/api_keys/${id}/rotate`, {
        body: { data: { type: 'api_keys', id, attributes: { grace_period_minutes: 30 } } },
      });
      expect(res.status).toBe(200);
      const ends = new Date(res.body.data.attributes.grace_period_ends_at).getTime();
      expect(ends - Date.now()).toBeGreaterThan(29 * 60_000);
      expect(ends - Date.now()).toBeLessThanOrEqual(30 * 60_000);
      const fresh = res.body.data.attributes.token;
      expect((await h.resolve(token)).status).toBe(200);
      expect((await h.resolve(fresh)).status).toBe(200);
      // Once the grace period is over, only the new token works.
      await h.db
        .knex('api_keys')
        .where({ id })
        .update({ grace_period_ends_at: new Date(Date.now() - 1000) });
      expect((await h.resolve(token)).status).toBe(401);
      expect((await h.resolve(fresh)).status).toBe(200);
    });

    it('drops the grace of an earlier rotation when rotating again', async () => {
      const { id, token } = await createKey({});
      const body = { data: { type: 'api_keys', attributes: { grace_period_minutes: 10 } } };
      const second = (await h.request('POST', `/v1/api_keys/${id}/rotate`, { body })).body.data.attributes.token;
      const third = (await h.request('POST', `/v1/api_keys/${id}/rotate`, { body })).body.data.attributes.token;
      expect((await h.resolve(token)).status).toBe(401);
      expect((await h.resolve(second)).status).toBe(200);
      expect((await h.resolve(third)).status).toBe(200);
    });
  });
});
