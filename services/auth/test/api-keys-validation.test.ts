import { signAsGateway } from '@firewatch/testing';
import { operator } from '../src/domain/credential-bounds.rules.js';
import { createGroup, newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
let keyId: string;
beforeAll(async () => {
  h = await startHarness();
  keyId = (
    await h.services.apiKeys.create({ team_id: h.team.id, user_id: h.team.adminId, principal: null }, { name: 'existing', kind: 'global' })
  ).resource.id;
});
afterAll(async () => {
  await h.close();
});

async function create422(attributes: Record<string, unknown>, pointer: string, code?: string) {
  const res = await h.request('POST', '/v1/api_keys', { body: newKey(attributes) });
  expect(res.status).toBe(422);
  const error = res.body.errors.find((e: { source: { pointer: string } }) => e.source.pointer === pointer);
  expect(error).toBeDefined();
  if (code) expect(error.code).toBe(code);
  return res.body.errors;
}

describe('creating keys: validation', () => {
  it('refuses unknown attributes with a pointer', async () => {
    await create422({ colour: 'red' }, '/data/attributes/colour', 'unknown_attribute');
  });

  it('refuses rate limits: they are set only by arrangement', async () => {
    await create422({ rate_limit_read: 1000 }, '/data/attributes/rate_limit_read', 'unknown_attribute');
  });

  it('refuses a bad kind, and a missing name', async () => {
    await create422({ kind: 'superuser' }, '/data/attributes/kind');
    const res = await h.request('POST', '/v1/api_keys', { body: { data: { type: 'api_keys', attributes: { kind: 'global' } } } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/name');
  });

  it('needs group_ids for group keys and record_ids for record keys, and only there', async () => {
    await create422({ kind: 'group' }, '/data/attributes/group_ids', 'required');
    await create422({ kind: 'team', group_ids: [] }, '/data/attributes/group_ids');
    await create422({ kind: 'record' }, '/data/attributes/record_ids', 'required');
    await create422({ kind: 'global', group_ids: ['g'] }, '/data/attributes/group_ids');
    await create422({ kind: 'global', record_ids: ['r'] }, '/data/attributes/record_ids');
  });

  it('accepts the reference API group_id for group keys', async () => {
    const group = await createGroup(h, 'Group nine');
    const res = await h.request('POST', '/v1/api_keys', { body: newKey({ kind: 'team', group_id: group.toUpperCase() }) });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ kind: 'group', group_ids: [group] });
  });

  it("refuses group ids that name no group of the team, free strings and another team's alike", async () => {
    const mine = await createGroup(h, 'Mine');
    const theirs = await h.request('POST', '/v1/teams', {
      body: { data: { type: 'groups', attributes: { name: 'Theirs' } } },
      as: { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId },
    });
    const res = await h.request('POST', '/v1/api_keys', {
      body: newKey({ kind: 'group', group_ids: [mine, 'platform', theirs.body.data.id] }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { source: { pointer: string }; code: string }) => [e.source.pointer, e.code])).toEqual([
      ['/data/attributes/group_ids/1', 'not_found'],
      ['/data/attributes/group_ids/2', 'not_found'],
    ]);
    await create422({ kind: 'team', group_id: 'platform' }, '/data/attributes/group_id', 'not_found');
  });

  it('refuses an expiry in the past, too far away, or without a time zone', async () => {
    await create422({ expires_at: new Date(Date.now() - 60_000).toISOString() }, '/data/attributes/expires_at');
    await create422({ expires_at: '2999-01-01T00:00:00Z' }, '/data/attributes/expires_at');
    await create422({ expires_at: 'tomorrow' }, '/data/attributes/expires_at');
    await create422({ expires_at: '2030-01-01T00:00:00' }, '/data/attributes/expires_at');
  });

  it('checks personal keys: user of the same team, no roles of their own', async () => {
    for (const user_id of [h.otherTeam.adminId, 999_999]) {
      await expect(h.services.apiKeys.create(operator(h.team.id), { name: 'p', kind: 'personal', user_id })).rejects.toMatchObject({
        issues: [expect.objectContaining({ pointer: '/data/attributes/user_id', code: 'not_found' })],
      });
    }
    await create422({ kind: 'personal', role: 'admin' }, '/data/attributes/role');
    await create422({ kind: 'global', user_id: h.team.userId }, '/data/attributes/user_id');
    const noUser = await h.request('POST', '/v1/api_keys', { as: { user_id: null }, body: newKey({ kind: 'personal' }) });
    expect(noUser.status).toBe(422);
    expect(noUser.body.errors[0].source.pointer).toBe('/data/attributes/user_id');
  });

  it('refuses bad capabilities and roles', async () => {
    await create422({ capabilities: ['read', 'admin'] }, '/data/attributes/capabilities/1');
    await create422({ capabilities: [] }, '/data/attributes/capabilities');
    await create422({ role: 'root' }, '/data/attributes/role');
  });

  it('refuses a wrong document type (409) and client-generated ids (422)', async () => {
    expect(
      (await h.request('POST', '/v1/api_keys', { body: { data: { type: 'users', attributes: { name: 'x', kind: 'global' } } } })).status,
    ).toBe(409);
    const res = await h.request('POST', '/v1/api_keys', {
      body: { data: { type: 'api_keys', id: 'x', attributes: { name: 'x', kind: 'global' } } },
    });
    expect(res.status).toBe(422);
  });
});

describe('media types and bodies', () => {
  it('answers 415 for a body in another media type', async () => {
    const res = await h.request('POST', '/v1/api_keys', { body: newKey({}), contentType: 'application/json' });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].status).toBe('415');
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await h.request('POST', '/v1/api_keys', { raw: '{"data": {' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('malformed_json');
  });

  it('answers 406 when Accept rules out JSON:API', async () => {
    const principal = await signAsGateway(
      {
        team_id: h.team.id,
        user_id: h.team.adminId,
        role: 'admin',
        on_call_role: 'admin',
        credential: { type: 'api_key', id: 'x', kind: 'global' },
        capabilities: ['read'],
        scopes: null,
        group_ids: null,
        record_ids: null,
      },
      'auth',
      'GET',
      '/v1/api_keys',
    );
    const res = await fetch(`${h.url}/v1/api_keys`, { headers: { accept: 'text/html', 'x-firewatch-principal': principal } });
    expect(res.status).toBe(406);
  });
});

describe('list queries', () => {
  it.each([
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[number]=abc', 'page[number]'],
    ['filter[colour]=red', 'filter[colour]'],
    ['filter[kind]=superuser', 'filter[kind]'],
    ['filter[kind][in]=global,superuser', 'filter[kind][in]'],
    ['filter[user_id]=99999999999', 'filter[user_id]'],
    ['filter[created_at][gt]=yesterday', 'filter[created_at][gt]'],
    ['sort=token_hash', 'sort'],
    ['include=role', 'include'],
    ['bogus=1', 'bogus'],
  ])('answers 400 for %s', async (query, parameter) => {
    const res = await h.request('GET', `/v1/api_keys?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source.parameter).toBe(parameter);
  });

  it('accepts the maximum page size', async () => {
    expect((await h.request('GET', '/v1/api_keys?page[size]=100')).status).toBe(200);
  });
});

describe('access', () => {
  it('answers 401 without the gateway principal', async () => {
    const res = await h.request('GET', '/v1/api_keys', { as: null });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await h.request('GET', '/v1/users/me', { as: null })).status).toBe(401);
    expect((await h.request('GET', '/v1/no-such-thing', { as: null })).status).toBe(401);
  });

  it('answers 401 for a forged principal token', async () => {
    const res = await fetch(`${h.url}/v1/api_keys`, { headers: { 'x-firewatch-principal': 'eyJhbGciOiJIUzI1NiJ9.e30.forged' } });
    expect(res.status).toBe(401);
  });

  it('answers 403 to non-admins and to keys without the capability', async () => {
    expect((await h.request('GET', '/v1/api_keys', { as: { user_id: h.team.userId, role: 'user' } })).status).toBe(403);
    expect((await h.request('POST', '/v1/api_keys', { as: { role: 'observer' }, body: newKey({}) })).status).toBe(403);
    expect((await h.request('DELETE', `/v1/api_keys/${keyId}`, { as: { capabilities: ['read'] } })).status).toBe(403);
    expect((await h.request('GET', `/v1/api_keys/${keyId}`)).status).toBe(200);
  });

  it("hides another team's keys: 404 on every operation, absent from lists", async () => {
    const as = { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId };
    const body = { data: { type: 'api_keys', id: keyId, attributes: { name: 'stolen' } } };
    expect((await h.request('GET', `/v1/api_keys/${keyId}`, { as })).status).toBe(404);
    expect((await h.request('PUT', `/v1/api_keys/${keyId}`, { as, body })).status).toBe(404);
    expect((await h.request('POST', `/v1/api_keys/${keyId}/rotate`, { as })).status).toBe(404);
    expect((await h.request('DELETE', `/v1/api_keys/${keyId}`, { as })).status).toBe(404);
    const list = await h.request('GET', '/v1/api_keys', { as });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect((await h.request('GET', `/v1/api_keys/${keyId}`)).body.data.attributes.name).toBe('existing');
  });

  it('answers 404 with a JSON:API error for unknown routes', async () => {
    const res = await h.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('route_not_found');
  });
});
