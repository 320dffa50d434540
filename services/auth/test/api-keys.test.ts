import { createGroup, JSONAPI, newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const ATTRIBUTES = [
  'name',
  'description',
  'kind',
  'role',
  'on_call_role',
  'capabilities',
  'group_ids',
  'record_ids',
  'user_id',
  'expires_at',
  'last_used_at',
  'grace_period_ends_at',
  'rate_limit_read',
  'rate_limit_write',
  'created_at',
  'updated_at',
].sort();

async function outbox(type: string, id: string) {
  const rows = await h.db.knex('outbox').where({ type });
  return rows.map((r) => r.payload).filter((p) => p.data.id === id);
}

describe('/v1/api_keys', () => {
  let id: string;
  let token: string;
  const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();

  it('creates a key: 201, the token once, the reference kind alias accepted', async () => {
    const res = await h.request('POST', '/v1/api_keys', {
      body: newKey({
        name: 'Deploy bot',
        description: 'CI',
        kind: 'organization',
        role: 'admin',
        expires_at: expiresAt,
        capabilities: ['read', 'update', 'read'],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain(JSONAPI);
    id = res.body.data.id;
    token = res.body.data.attributes.token;
    expect(res.headers.get('location')).toBe(`/v1/api_keys/${id}`);
    expect(res.body.data.type).toBe('api_keys');
    expect(token).toMatch(/^fwk_[0-9A-Za-z]{10}_[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(res.body.data.attributes).sort()).toEqual([...ATTRIBUTES, 'token'].sort());
    expect(res.body.data.attributes).toMatchObject({
      name: 'Deploy bot',
      description: 'CI',
      kind: 'global',
      role: 'admin',
      on_call_role: 'user',
      capabilities: ['read', 'update'],
      user_id: h.team.adminId,
      expires_at: expiresAt,
      last_used_at: null,
      rate_limit_read: null,
      rate_limit_write: null,
    });
    // Only the hash is stored.
    const row = await h.db.knex('api_keys').where({ id }).first();
    // The secret is everything after `fwk_<prefix>_` (it may itself contain `_`).
    expect(JSON.stringify(row)).not.toContain(token.slice('fwk_'.length + 11));
  });

  it('writes api_key.created to the outbox without the token', async () => {
    const [event] = await outbox('api_key.created', id);
    expect(event).toMatchObject({ type: 'api_key.created', team_id: h.team.id, data: { id, type: 'api_keys' } });
    expect(Object.keys(event.data.attributes).sort()).toEqual(ATTRIBUTES);
  });

  it('reads a key without its token', async () => {
    const res = await h.request('GET', `/v1/api_keys/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data.attributes).sort()).toEqual(ATTRIBUTES);
    expect(JSON.stringify(res.body)).not.toContain(token);
  });

  it('lists keys without tokens, paginated', async () => {
    for (const name of ['b-two', 'a-one', 'c-three']) {
      expect((await h.request('POST', '/v1/api_keys', { body: newKey({ name }) })).status).toBe(201);
    }
    const res = await h.request('GET', '/v1/api_keys?page[size]=2&sort=name');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('"token"');
    expect(res.body.data.map((k: { attributes: { name: string } }) => k.attributes.name)).toEqual(['a-one', 'b-two']);
    expect(res.body.meta).toEqual({
      current_page: 1,
      next_page: 2,
      prev_page: null,
      total_count: 4,
      total_pages: 2,
      next_cursor: expect.any(String),
    });
    expect(res.body.links.next).toBe('/v1/api_keys?sort=name&page[number]=2&page[size]=2');
    const last = await h.request('GET', res.body.links.last);
    expect(last.body.data.map((k: { attributes: { name: string } }) => k.attributes.name)).toEqual(['c-three', 'Deploy bot']);
  });

  it('filters and sorts', async () => {
    const [g1, g2] = [await createGroup(h, 'Filter one'), await createGroup(h, 'Filter two')];
    const group = await h.request('POST', '/v1/api_keys', { body: newKey({ name: 'g-key', kind: 'group', group_ids: [g1, g2] }) });
    const names = async (query: string) => {
      const res = await h.request('GET', `/v1/api_keys?${query}`);
      expect(res.status).toBe(200);
      return res.body.data.map((k: { attributes: { name: string } }) => k.attributes.name);
    };
    expect(await names('filter[search]=ONE&sort=name')).toEqual(['a-one']);
    expect(await names('filter[name]=c-three')).toEqual(['c-three']);
    // String equality ignores case, as on every list (docs/decisions.md).
    expect(await names('filter[name]=DEPLOY%20BOT')).toEqual(['Deploy bot']);
    expect(await names('sort=-name')).toEqual(['g-key', 'Deploy bot', 'c-three', 'b-two', 'a-one']);
    expect(await names('filter[kind]=organization&filter[expires_at][lt]=2999-01-01T00:00:00Z')).toEqual(['Deploy bot']);
    expect(await names('filter[active]=false')).toEqual([]);
    expect(await names('filter[expired]=false&filter[user_id]=' + h.team.adminId + '&sort=name')).toHaveLength(5);
    expect(await names('filter[kind]=personal')).toEqual([]);
    expect(await names('filter[kind][in]=personal,team&sort=name')).toEqual(['g-key']);
    expect(await names(`filter[group_ids]=zz,${g2}`)).toEqual(['g-key']);
    expect(await names(`filter[group_ids][not_eq]=${g2}&sort=name`)).toEqual(['a-one', 'b-two', 'c-three', 'Deploy bot']);
    await h.request('DELETE', `/v1/api_keys/${group.body.data.id}`);
    expect(await names(`filter[created_at][gt]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });

  it('updates name, description and expiry', async () => {
    const res = await h.request('PUT', `/v1/api_keys/${id}`, {
      body: { data: { type: 'api_keys', id, attributes: { name: 'Deploy bot 2', description: null, expires_at: null } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'Deploy bot 2', description: null, expires_at: null, kind: 'global' });
    expect(res.body.data.attributes.token).toBeUndefined();
    expect((await h.request('GET', `/v1/api_keys/${id}`)).body.data.attributes.name).toBe('Deploy bot 2');
    expect(await outbox('api_key.updated', id)).toHaveLength(1);
  });

  it('refuses an update whose data.id differs from the path', async () => {
    const res = await h.request('PUT', `/v1/api_keys/${id}`, {
      body: { data: { type: 'api_keys', id: '00000000-0000-4000-8000-000000000000', attributes: { name: 'x' } } },
    });
    expect(res.status).toBe(409);
  });

  it('refuses to change the kind or roles of a key', async () => {
    const res = await h.request('PUT', `/v1/api_keys/${id}`, { body: { data: { type: 'api_keys', attributes: { kind: 'personal' } } } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/kind');
  });

  it('rotates: a new token, shown once, with an optional new expiry', async () => {
    const newExpiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await h.request('POST', `/v1/api_keys/${id}/rotate`, {
      body: { data: { type: 'api_keys', attributes: { expires_at: newExpiry } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.token).toMatch(/^fwk_/);
    expect(res.body.data.attributes.token).not.toBe(token);
    expect(res.body.data.attributes.expires_at).toBe(newExpiry);
    expect((await h.request('GET', `/v1/api_keys/${id}`)).body.data.attributes.token).toBeUndefined();
  });

  it('caps the rotation grace period', async () => {
    const res = await h.request('POST', `/v1/api_keys/${id}/rotate`, {
      body: { data: { type: 'api_keys', attributes: { grace_period_minutes: 1441 } } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/grace_period_minutes');
  });

  it('revokes on DELETE: 200 with the key, then 404 everywhere', async () => {
    const res = await h.request('DELETE', `/v1/api_keys/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, type: 'api_keys', attributes: { name: 'Deploy bot 2' } });
    expect(res.body.data.attributes.token).toBeUndefined();
    expect(await outbox('api_key.deleted', id)).toHaveLength(1);
    expect((await h.request('GET', `/v1/api_keys/${id}`)).status).toBe(404);
    expect((await h.request('DELETE', `/v1/api_keys/${id}`)).status).toBe(404);
    expect((await h.request('POST', `/v1/api_keys/${id}/rotate`)).status).toBe(404);
    const list = await h.request('GET', '/v1/api_keys');
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(id);
  });

  it('answers 404 for ids that are not UUIDs', async () => {
    expect((await h.request('GET', '/v1/api_keys/not-a-uuid')).status).toBe(404);
  });
});

describe('GET /v1/users/me', () => {
  it('returns the calling user', async () => {
    const res = await h.request('GET', '/v1/users/me', { as: { user_id: h.team.userId, role: 'user' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: String(h.team.userId),
      type: 'users',
      attributes: { email: 'user@one.test', name: 'User', role: 'user', on_call_role: 'user', team_id: h.team.id },
    });
    expect(JSON.stringify(res.body)).not.toContain('password');
  });

  it('answers 404 for a team-wide key, and for a user of another team', async () => {
    expect((await h.request('GET', '/v1/users/me', { as: { user_id: null } })).status).toBe(404);
    expect((await h.request('GET', '/v1/users/me', { as: { team_id: h.otherTeam.id, user_id: h.team.adminId } })).status).toBe(404);
  });
});

describe('health', () => {
  it('creates a key while its user or creator is being deleted without a 500: the key waits for the deletion', async () => {
    const made = async (name: string) =>
      Number((await h.services.identity.createUser({ team_id: h.team.id, email: `${name}@one.test`, name, role: 'admin' })).id);
    const deletedMeanwhile = async (userId: number, create: () => Promise<{ status: number; body: any }>) => {
      const trx = await h.db.knex.transaction();
      await trx('users').where({ id: userId }).forUpdate();
      await trx('users').where({ id: userId }).delete();
      const pending = create();
      await new Promise((r) => setTimeout(r, 300));
      await trx.commit();
      return pending;
    };
    // A personal key for a user deleted meanwhile: the user is unknown (422), as if deleted first.
    const owner = await made('keyowner');
    const personal = await deletedMeanwhile(owner, () =>
      h.request('POST', '/v1/api_keys', { body: newKey({ name: 'mine', kind: 'personal' }), as: { user_id: owner } }),
    );
    expect(personal.status).toBe(422);
    // A team-wide key whose creator is deleted meanwhile keeps no creator, as if made just before.
    const creator = await made('keycreator');
    const teamWide = await deletedMeanwhile(creator, () =>
      h.request('POST', '/v1/api_keys', { body: newKey({ name: 'orphan' }), as: { user_id: creator } }),
    );
    expect(teamWide.status).toBe(201);
    expect(teamWide.body.data.attributes.user_id).toBeNull();
  });

  it('serves /healthz and /readyz', async () => {
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.url}/readyz`)).status).toBe(200);
  });
});
