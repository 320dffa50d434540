import { createServices } from '../src/create-services.js';
import { operator } from '../src/domain/credential-bounds.rules.js';
import { newKey, startHarness, type Harness } from './support/harness.js';

// Only unrestricted admins manage credentials, nobody hands out more than they hold, and
// the per-team caps (docs/security.md).
let h: Harness;
let globalAdminKeyId: string;
let appId: string;
beforeAll(async () => {
  h = await startHarness();
  globalAdminKeyId = (
    await h.services.apiKeys.create(operator(h.team.id), { name: 'root', kind: 'global', role: 'admin', on_call_role: 'admin' })
  ).resource.id;
  appId = (await h.services.oauth.applications.create(operator(h.team.id), { name: 'ci', scopes: ['ir.environments:read'] })).resource.id;
});
afterAll(async () => {
  await h.close();
});

const key = (attributes: Record<string, unknown>) => newKey({ name: 'minted', ...attributes });
const app = (attributes: Record<string, unknown>) => ({
  data: { type: 'oauth_applications', attributes: { name: 'minted', ...attributes } },
});

describe('credential management needs an unrestricted principal (#1)', () => {
  const restricted = {
    'record-scoped': { credential: { type: 'api_key', id: 'r', kind: 'record' }, record_ids: ['x'], user_id: null },
    'group-scoped': { credential: { type: 'api_key', id: 'g', kind: 'group' }, group_ids: ['g1'], user_id: null },
  };

  it.each(Object.entries(restricted))('refuses a %s admin key on every API key and OAuth application operation', async (_label, as) => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/api_keys'],
      ['POST', '/v1/api_keys', key({})],
      ['GET', `/v1/api_keys/${globalAdminKeyId}`],
      ['PUT', `/v1/api_keys/${globalAdminKeyId}`, { data: { type: 'api_keys', id: globalAdminKeyId, attributes: { name: 'x' } } }],
      ['POST', `/v1/api_keys/${globalAdminKeyId}/rotate`],
      ['DELETE', `/v1/api_keys/${globalAdminKeyId}`],
      ['GET', '/v1/oauth_applications'],
      ['POST', '/v1/oauth_applications', app({ scopes: ['ir.environments:read'] })],
      ['GET', `/v1/oauth_applications/${appId}`],
      ['PATCH', `/v1/oauth_applications/${appId}`, { data: { type: 'oauth_applications', id: appId, attributes: { name: 'x' } } }],
      ['DELETE', `/v1/oauth_applications/${appId}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.request(method, path, { as, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    // Nothing changed: the target key still resolves with its old token's row intact.
    expect((await h.services.apiKeys.get(h.team.id, globalAdminKeyId)).attributes.name).toBe('root');
    expect((await h.services.oauth.applications.get(h.team.id, appId)).attributes.name).toBe('ci');
  });
});

describe('minted credentials stay within their creator (#2)', () => {
  const ocObserver = { role: 'admin', on_call_role: 'observer' };

  it('refuses roles above the creator on either side', async () => {
    let res = await h.request('POST', '/v1/api_keys', { as: ocObserver, body: key({ role: 'admin', on_call_role: 'admin' }) });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].detail).toMatch(/on_call_role/);
    res = await h.request('POST', '/v1/api_keys', { as: ocObserver, body: key({ role: 'admin', on_call_role: 'observer' }) });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ role: 'admin', on_call_role: 'observer' });
  });

  it('refuses the default roles too when they exceed the creator', async () => {
    // Without roles a key gets `user` on both sides: above an on-call observer.
    expect((await h.request('POST', '/v1/api_keys', { as: ocObserver, body: key({}) })).status).toBe(403);
  });

  it('refuses capabilities the creator lacks, the default set included', async () => {
    const as = { capabilities: ['read', 'create'] };
    expect((await h.request('POST', '/v1/api_keys', { as, body: key({ capabilities: ['read', 'delete'] }) })).status).toBe(403);
    expect((await h.request('POST', '/v1/api_keys', { as, body: key({}) })).status).toBe(403);
    expect((await h.request('POST', '/v1/api_keys', { as, body: key({ capabilities: ['read'] }) })).status).toBe(201);
  });

  it("bounds expiry by the creator key's own expiry", async () => {
    const ceiling = new Date(Date.now() + 86_400_000);
    const as = { credential: { type: 'api_key', id: 'temp', kind: 'global', expires_at: ceiling.toISOString() } };
    const later = new Date(ceiling.getTime() + 60_000).toISOString();
    for (const attributes of [{}, { expires_at: null }, { expires_at: later }]) {
      const res = await h.request('POST', '/v1/api_keys', { as, body: key(attributes) });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ code: 'beyond_own_expiry', source: { pointer: '/data/attributes/expires_at' } });
    }
    const ok = await h.request('POST', '/v1/api_keys', {
      as,
      body: key({ expires_at: new Date(ceiling.getTime() - 60_000).toISOString() }),
    });
    expect(ok.status).toBe(201);
    // Nor can it lift the expiry of a key, its own or another's.
    const lift = await h.request('PUT', `/v1/api_keys/${ok.body.data.id}`, {
      as,
      body: { data: { type: 'api_keys', attributes: { expires_at: null } } },
    });
    expect(lift.status).toBe(422);
    // Rotating a key that outlives the caller hands out a token that outlives it: refused.
    expect((await h.request('POST', `/v1/api_keys/${globalAdminKeyId}/rotate`, { as })).status).toBe(422);
  });

  it('issues personal keys only to the caller itself', async () => {
    const other = await h.request('POST', '/v1/api_keys', { body: key({ kind: 'personal', user_id: h.team.userId }) });
    expect(other.status).toBe(403);
    const own = await h.request('POST', '/v1/api_keys', { body: key({ kind: 'personal', user_id: h.team.adminId }) });
    expect(own.status).toBe(201);
    // A team-wide key acts for no user, so it cannot make personal keys at all.
    expect(
      (await h.request('POST', '/v1/api_keys', { as: { user_id: null }, body: key({ kind: 'personal', user_id: h.team.userId }) })).status,
    ).toBe(403);
  });

  it("refuses to rotate another user's personal key, or a key stronger than the caller", async () => {
    const personal = await h.services.apiKeys.create(operator(h.team.id), { name: 'p', kind: 'personal', user_id: h.team.userId });
    expect((await h.request('POST', `/v1/api_keys/${personal.resource.id}/rotate`)).status).toBe(403);
    expect((await h.request('POST', `/v1/api_keys/${globalAdminKeyId}/rotate`, { as: ocObserver })).status).toBe(403);
    expect((await h.request('POST', `/v1/api_keys/${globalAdminKeyId}/rotate`, { as: { capabilities: ['read', 'update'] } })).status).toBe(
      403,
    );
  });

  it('lets an OAuth token issue keys only with the all scope', async () => {
    const oauth = { credential: { type: 'oauth', client_id: 'c' }, scopes: ['ir.all'] };
    expect((await h.request('POST', '/v1/api_keys', { as: oauth, body: key({ on_call_role: 'observer' }) })).status).toBe(403);
    expect((await h.request('POST', '/v1/api_keys', { as: { ...oauth, scopes: ['all'] }, body: key({}) })).status).toBe(201);
  });

  it('bounds OAuth application scopes by the creator', async () => {
    const create = (as: Record<string, unknown>, scopes: string[]) =>
      h.request('POST', '/v1/oauth_applications', { as, body: app({ scopes }) });
    expect((await create(ocObserver, ['all'])).status).toBe(403);
    expect((await create(ocObserver, ['oc.alerts:write'])).status).toBe(403);
    expect((await create(ocObserver, ['oc.alerts:read', 'ir.environments:write'])).status).toBe(201);
    const oauth = { credential: { type: 'oauth', client_id: 'c' }, scopes: ['ir.all'] };
    expect((await create(oauth, ['oc.alerts:read'])).status).toBe(403);
    expect((await create(oauth, ['ir.environments:write'])).status).toBe(201);
    expect((await create({ capabilities: ['read', 'create'] }, ['ir.environments:write'])).status).toBe(403);
    expect((await create({ capabilities: ['read', 'create'] }, ['ir.environments:read'])).status).toBe(201);
    const expiring = {
      credential: { type: 'api_key', id: 'temp', kind: 'global', expires_at: new Date(Date.now() + 60_000).toISOString() },
    };
    expect((await create(expiring, ['ir.environments:read'])).status).toBe(403);
  });
});

describe('caps on live credentials per team (#8)', () => {
  it('holds the cap on API keys and applications under concurrent creates', async () => {
    const services = createServices({
      knex: h.db.knex,
      logger: { warn() {} } as never,
      limits: { apiKeysPerTeam: 5, applicationsPerTeam: 3 },
    });
    const team = await services.identity.createTeam({ name: 'Capped' });
    const keys = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => services.apiKeys.create(operator(team.id), { name: `k${i}`, kind: 'global' })),
    );
    expect(keys.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = keys.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 422, issues: [expect.objectContaining({ code: 'limit_reached' })] });
    const apps = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        services.oauth.applications.create(operator(team.id), { name: `a${i}`, scopes: ['ir.environments:read'] }),
      ),
    );
    expect(apps.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    // Revoking one frees a slot; so does one expiring.
    const made = keys
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<{ resource: { id: string } }>).value.resource.id);
    await services.apiKeys.revoke(team.id, made[0]);
    await expect(services.apiKeys.create(operator(team.id), { name: 'again', kind: 'global' })).resolves.toBeDefined();
    await expect(services.apiKeys.create(operator(team.id), { name: 'one too many', kind: 'global' })).rejects.toMatchObject({
      status: 422,
    });
    await h.db
      .knex('api_keys')
      .where({ id: made[1] })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expect(services.apiKeys.create(operator(team.id), { name: 'after expiry', kind: 'global' })).resolves.toBeDefined();
  });
});

describe('one-time secrets (#16)', () => {
  it('are served with Cache-Control: no-store, and only there', async () => {
    const created = await h.request('POST', '/v1/api_keys', { body: key({}) });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const rotated = await h.request('POST', `/v1/api_keys/${created.body.data.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const application = await h.request('POST', '/v1/oauth_applications', { body: app({ scopes: ['ir.environments:read'] }) });
    expect(application.status).toBe(201);
    expect(application.body.data.attributes.client_secret).toEqual(expect.any(String));
    expect(application.headers.get('cache-control')).toBe('no-store');
    const read = await h.request('GET', `/v1/api_keys/${created.body.data.id}`);
    expect(read.headers.get('cache-control')).toBeNull();
  });
});
