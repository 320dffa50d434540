import { operator } from '../src/domain/credential-bounds.rules.js';
import { newKey, startHarness, type Harness } from './support/harness.js';

let h: Harness;
let ids: Record<'ana' | 'bo' | 'cy', string>;

/** A principal acting as user `id` of the team with a personal key, with `role` on both sides. */
const asUser = (id: string | number, role = 'user') => ({
  user_id: Number(id),
  role,
  on_call_role: role,
  credential: { type: 'api_key', id: `personal-${id}`, kind: 'personal' },
});
const update = (attributes: Record<string, unknown>) => ({ data: { type: 'users', attributes } });

async function create(email: string, name: string, role = 'user'): Promise<string> {
  return (await h.services.identity.createUser({ team_id: h.team.id, email, name, role: role as 'user' })).id;
}

beforeAll(async () => {
  h = await startHarness();
  ids = {
    ana: await create('ana.lima@one.test', 'Ana Lima'),
    bo: await create('bo@one.test', 'Bo Svensson', 'observer'),
    cy: await create('cy@one.test', 'Cy Young', 'admin'),
  };
});
afterAll(async () => {
  await h?.close();
});

const listIds = async (query: string, as?: Record<string, unknown>) => {
  const res = await h.request('GET', `/v1/users?${query}`, { as });
  expect(res.status).toBe(200);
  return res.body.data.map((u: { id: string }) => u.id);
};

describe('GET /v1/users', () => {
  it("lists the team's users with the reference's attributes and offset pages", async () => {
    const res = await h.request('GET', '/v1/users?page[size]=2');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ current_page: 1, total_count: 5, total_pages: 3, next_page: 2 });
    expect(typeof res.body.meta.next_cursor).toBe('string');
    expect(res.body.links.next).toContain('page[number]=2');
    const all = await listIds('page[size]=100');
    expect(all).toEqual([String(h.team.adminId), String(h.team.userId), ids.ana, ids.bo, ids.cy]);
    const ana = (await h.request('GET', `/v1/users/${ids.ana}`)).body.data;
    expect(ana).toEqual({
      id: ids.ana,
      type: 'users',
      attributes: {
        email: 'ana.lima@one.test',
        first_name: 'Ana',
        last_name: 'Lima',
        full_name: 'Ana Lima',
        full_name_with_team: 'Ana Lima (Team one)',
        name: 'Ana Lima',
        time_zone: 'Etc/UTC',
        role: 'user',
        on_call_role: 'user',
        team_id: h.team.id,
        is_service_account: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });

  it('filters by email (whole, any case), name (part of first, last or full name, any case), role and search', async () => {
    expect(await listIds('filter[email]=ANA.LIMA@one.test')).toEqual([ids.ana]);
    expect(await listIds('filter[email][in]=bo@one.test,CY@one.test')).toEqual([ids.bo, ids.cy]);
    expect(await listIds('filter[name]=lim')).toEqual([ids.ana]);
    expect(await listIds('filter[name]=SVENS')).toEqual([ids.bo]);
    expect(await listIds('filter[name]=ana lima')).toEqual([ids.ana]);
    expect(await listIds('filter[role]=admin')).toEqual([String(h.team.adminId), ids.cy]);
    expect(await listIds('filter[role][in]=observer,admin&filter[name]=y')).toEqual([ids.cy]);
    expect(await listIds('filter[search]=one.test&filter[role]=observer')).toEqual([ids.bo]);
    expect(await listIds('sort=-name&filter[role][not_eq]=admin')).toEqual([String(h.team.userId), ids.bo, ids.ana]);
    for (const query of ['filter[role]=root', 'filter[team_id]=1', 'sort=role', 'filter[name][eq]=x']) {
      const res = await h.request('GET', `/v1/users?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
    }
  });

  it('pages by cursor as one offset page does, and refuses a cursor of another list', async () => {
    for (const query of ['', 'sort=-created_at', 'sort=name', 'filter[role][in]=user,admin']) {
      const all = await listIds(`${query}&page[size]=100`);
      const seen: string[] = [];
      let page = await h.request('GET', `/v1/users?${query}&page[size]=2`);
      for (;;) {
        seen.push(...page.body.data.map((u: { id: string }) => u.id));
        const cursor = page.body.meta.next_cursor;
        if (cursor === undefined) break;
        page = await h.request('GET', `/v1/users?${query}&page[size]=2&page[after]=${cursor}`);
        expect(page.status).toBe(200);
        expect(page.body.meta).toMatchObject({ total_count: null, current_page: null });
      }
      expect([query, seen]).toEqual([query, all]);
    }
    const cursor = (await h.request('GET', '/v1/users?page[size]=1')).body.meta.next_cursor;
    for (const name of ['k1', 'k2']) await h.request('POST', '/v1/api_keys', { body: newKey({ name }) });
    // The API keys' list has the same team, order and (no) filters: only the path tells the cursors apart.
    const keyCursor = (await h.request('GET', '/v1/api_keys?page[size]=1')).body.meta.next_cursor;
    expect(typeof keyCursor).toBe('string');
    for (const [query, as] of [
      [`page[after]=${cursor}&filter[role]=user`, undefined],
      [`page[after]=${cursor}&sort=name`, undefined],
      [`page[after]=${cursor}`, { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId }],
      [`page[after]=${keyCursor}`, undefined],
      [`page[after]=${cursor}&page[number]=2`, undefined],
    ] as const) {
      const res = await h.request('GET', `/v1/users?${query}`, { as });
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.errors[0].source).toEqual({ parameter: 'page[after]' });
    }
  });

  it("never shows another team's users: its list is its own, its ids are 404", async () => {
    expect(await listIds('page[size]=100', { team_id: h.otherTeam.id, user_id: h.otherTeam.adminId })).toEqual([
      String(h.otherTeam.adminId),
    ]);
    for (const path of [`/v1/users/${h.otherTeam.adminId}`, '/v1/users/0', '/v1/users/abc', '/v1/users/99999999999']) {
      expect([path, (await h.request('GET', path)).status]).toEqual([path, 404]);
    }
    const put = await h.request('PUT', `/v1/users/${h.otherTeam.adminId}`, { body: update({ first_name: 'Taken' }) });
    expect(put.status).toBe(404);
    expect((await h.request('DELETE', `/v1/users/${h.otherTeam.adminId}`)).status).toBe(404);
  });

  it("includes the teams (groups) its users are members of, and accepts the reference's other includes adding nothing", async () => {
    const team = await h.request('POST', '/v1/teams', {
      body: { data: { type: 'groups', attributes: { name: 'Ana and Cy', user_ids: [Number(ids.ana)], admin_ids: [Number(ids.cy)] } } },
    });
    const groupId = team.body.data.id;
    const one = await h.request('GET', `/v1/users/${ids.ana}?include=teams,email_addresses,role`);
    expect(one.status).toBe(200);
    expect(one.body.included).toEqual([(await h.request('GET', `/v1/teams/${groupId}`)).body.data]);
    const list = await h.request('GET', `/v1/users?include=teams&filter[email]=cy@one.test`);
    expect(list.body.included.map((g: { id: string }) => g.id)).toEqual([groupId]);
    const none = await h.request('GET', `/v1/users/${ids.bo}?include=phone_numbers,notification_rules,schedules,devices,on_call_role`);
    expect(none.body.included).toEqual([]);
    expect((await h.request('GET', `/v1/users/${ids.ana}`)).body.included).toBeUndefined();
    expect((await h.request('GET', `/v1/users/${ids.ana}?include=incidents`)).status).toBe(400);
    expect((await h.request('GET', `/v1/users/${ids.ana}?sort=name`)).status).toBe(400);
    // An include is a read of the teams: an OAuth token without ir.groups gets the 403 a read of them gets.
    const oauth = { scopes: ['oc.alerts:read'], credential: { type: 'oauth', client_id: 'c' }, user_id: h.team.userId, role: 'user' };
    expect((await h.request('GET', `/v1/users/${ids.ana}?include=teams`, { as: oauth })).status).toBe(403);
    expect((await h.request('GET', `/v1/users/${ids.ana}?include=role`, { as: oauth })).status).toBe(200);
    await h.request('DELETE', `/v1/teams/${groupId}`);
  });

  it('is readable by any credential of the team: a plain user, an observer, an OAuth token without ir scopes', async () => {
    expect((await h.request('GET', '/v1/users', { as: asUser(ids.bo, 'observer') })).status).toBe(200);
    const oauth = { scopes: ['oc.alerts:read'], credential: { type: 'oauth', client_id: 'c' }, user_id: h.team.userId, role: 'user' };
    expect((await h.request('GET', `/v1/users/${ids.ana}`, { as: oauth })).status).toBe(200);
    const noRead = await h.request('GET', '/v1/users', { as: { capabilities: ['create'] } });
    expect(noRead.status).toBe(403);
  });
});

describe('PUT /v1/users/{id}', () => {
  it('lets an admin change names, email, roles and time zone; the full name follows', async () => {
    const res = await h.request('PUT', `/v1/users/${ids.ana}`, {
      body: update({ first_name: 'Anna', email: 'Anna@One.test', role: 'observer', on_call_role: 'admin', time_zone: 'america/new_york' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.body.data.attributes).toMatchObject({
      first_name: 'Anna',
      last_name: 'Lima',
      full_name: 'Anna Lima',
      name: 'Anna Lima',
      email: 'anna@one.test',
      role: 'observer',
      on_call_role: 'admin',
      time_zone: 'America/New_York',
    });
    const back = await h.request('PUT', `/v1/users/${ids.ana}`, { body: update({ last_name: null, role: 'user' }) });
    expect(back.body.data.attributes).toMatchObject({ first_name: 'Anna', last_name: null, full_name: 'Anna', role: 'user' });
  });

  it('lets a user change their own names and time zone, and nothing else of theirs or anyone else', async () => {
    const self = asUser(ids.ana);
    const own = await h.request('PUT', `/v1/users/${ids.ana}`, {
      as: self,
      body: update({ time_zone: 'Asia/Kolkata', last_name: 'Lima' }),
    });
    expect(own.status).toBe(200);
    expect(own.body.data.attributes).toMatchObject({ time_zone: 'Asia/Kolkata', full_name: 'Anna Lima' });
    for (const attributes of [{ role: 'admin' }, { email: 'me@one.test' }, { on_call_role: 'admin', time_zone: 'UTC' }]) {
      const res = await h.request('PUT', `/v1/users/${ids.ana}`, { as: self, body: update(attributes) });
      expect([attributes, res.status]).toEqual([attributes, 403]);
    }
    const other = await h.request('PUT', `/v1/users/${ids.bo}`, { as: self, body: update({ first_name: 'Hacked' }) });
    expect(other.status).toBe(403);
    // An observer writes nothing, their own profile included; a team key acts for no user.
    expect(
      (await h.request('PUT', `/v1/users/${ids.bo}`, { as: asUser(ids.bo, 'observer'), body: update({ time_zone: 'UTC' }) })).status,
    ).toBe(403);
    const teamKey = { user_id: null, role: 'user', on_call_role: 'user' };
    expect((await h.request('PUT', `/v1/users/${ids.ana}`, { as: teamKey, body: update({ time_zone: 'UTC' }) })).status).toBe(403);
    const after = (await h.request('GET', `/v1/users/${ids.bo}`)).body.data.attributes;
    expect(after).toMatchObject({ first_name: 'Bo', time_zone: 'Etc/UTC' });
  });

  it('refuses what breaks the rules with 422 and changes nothing', async () => {
    for (const [attributes, pointer, code] of [
      [{ time_zone: 'Mars/Olympus' }, '/data/attributes/time_zone', undefined],
      [{ time_zone: '+01:00' }, '/data/attributes/time_zone', undefined],
      [{ time_zone: 'EST' }, '/data/attributes/time_zone', undefined],
      [{ email: 'not-an-email' }, '/data/attributes/email', undefined],
      [{ role: 'root' }, '/data/attributes/role', undefined],
      [{ password: 'long enough password' }, '/data/attributes/password', 'unknown_attribute'],
      [{ first_name: '', last_name: null }, '/data/attributes/first_name', 'required'],
    ] as const) {
      const res = await h.request('PUT', `/v1/users/${ids.bo}`, { body: update(attributes) });
      expect([attributes, res.status, res.body.errors[0].source.pointer]).toEqual([attributes, 422, pointer]);
      if (code) expect(res.body.errors[0].code).toBe(code);
    }
    const taken = await h.request('PUT', `/v1/users/${ids.bo}`, { body: update({ email: 'cy@one.test' }) });
    expect(taken.status).toBe(409);
    expect((await h.request('GET', `/v1/users/${ids.bo}`)).body.data.attributes).toMatchObject({
      email: 'bo@one.test',
      full_name: 'Bo Svensson',
    });
  });

  it("keeps an admin's on-call role changes within their own on-call role and scopes", async () => {
    const person = async (email: string, role: string, on_call_role: string) =>
      (
        await h.services.identity.createUser({
          team_id: h.team.id,
          email,
          name: email,
          role: role as 'user',
          on_call_role: on_call_role as 'user',
        })
      ).id;
    const watcher = await person('oc-watcher@one.test', 'admin', 'observer');
    const target = await person('oc-target@one.test', 'user', 'user');
    const ocAdmin = await person('oc-admin@one.test', 'user', 'admin');
    // The admin role that lets them edit users is the incident side's; on-call they only watch.
    const asWatcher = { user_id: Number(watcher), role: 'admin', on_call_role: 'observer' };
    const asOcUser = { user_id: null, role: 'admin', on_call_role: 'user' };
    const oauth = (scopes: string[]) => ({ scopes, credential: { type: 'oauth', client_id: 'c' } });
    for (const [as, id, attributes, status] of [
      [asWatcher, watcher, { on_call_role: 'admin' }, 403],
      [asWatcher, target, { on_call_role: 'admin' }, 403],
      [asWatcher, target, { on_call_role: 'observer' }, 403],
      [asWatcher, target, { on_call_role: 'user', first_name: 'Same' }, 200],
      [asOcUser, target, { on_call_role: 'admin' }, 403],
      [asOcUser, ocAdmin, { on_call_role: 'user' }, 403],
      [oauth(['ir.all']), target, { on_call_role: 'observer' }, 403],
      [asOcUser, target, { on_call_role: 'observer' }, 200],
      [oauth(['all']), target, { on_call_role: 'admin' }, 200],
    ] as const) {
      const res = await h.request('PUT', `/v1/users/${id}`, { as, body: update(attributes) });
      expect([as, id, attributes, res.status]).toEqual([as, id, attributes, status]);
    }
    const roles = await h.db.knex('users').whereIn('id', [watcher, target, ocAdmin]).orderBy('id').pluck('on_call_role');
    expect(roles).toEqual(['observer', 'admin', 'admin']);
  });

  it('raises a role only from a credential that neither expires nor lacks a capability', async () => {
    const holder = (
      await h.services.identity.createUser({ team_id: h.team.id, email: 'key-holder@one.test', name: 'Key Holder', role: 'observer' })
    ).id;
    // A team key acts for no user: what it may not do is make its holder's own account more than it is.
    const readUpdate = { user_id: null, capabilities: ['read', 'update'] };
    const expiring = {
      user_id: null,
      credential: { type: 'api_key', id: 'k', kind: 'global', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    };
    for (const [as, attributes, status] of [
      [readUpdate, { role: 'admin' }, 403],
      [expiring, { role: 'user' }, 403],
      [expiring, { on_call_role: 'admin' }, 403],
      [readUpdate, { on_call_role: 'observer', first_name: 'Kay' }, 200],
      [expiring, { role: 'observer', time_zone: 'Europe/Paris' }, 200],
      [{ user_id: null }, { role: 'user' }, 200],
    ] as const) {
      const res = await h.request('PUT', `/v1/users/${holder}`, { as, body: update(attributes) });
      expect([as, attributes, res.status]).toEqual([as, attributes, status]);
    }
    expect(await h.db.knex('users').where({ id: holder }).first('role', 'on_call_role', 'first_name')).toEqual({
      role: 'user',
      on_call_role: 'observer',
      first_name: 'Kay',
    });
  });

  it('is refused to restricted admin keys and to OAuth tokens without ir.all, for anyone else', async () => {
    for (const as of [
      { record_ids: [ids.bo] },
      { group_ids: ['5f1c1a8e-0000-4000-8000-000000000001'] },
      { capabilities: ['read', 'create'] },
      { scopes: ['ir.incidents:write', 'oc.all'], credential: { type: 'oauth', client_id: 'c' } },
    ]) {
      const put = await h.request('PUT', `/v1/users/${ids.bo}`, { as, body: update({ first_name: 'Taken' }) });
      const del = await h.request('DELETE', `/v1/users/${ids.bo}`, { as });
      expect([as, put.status, del.status]).toEqual([as, 403, 403]);
    }
    expect((await h.request('GET', `/v1/users/${ids.bo}`)).body.data.attributes.first_name).toBe('Bo');
  });

  it('keeps an admin in the team: the last one cannot lose the role', async () => {
    const t = await h.services.identity.createTeam({ name: 'Solo' });
    const solo = await h.services.identity.createUser({ team_id: t.id, email: 'solo@solo.test', name: 'Solo', role: 'admin' });
    const as = { team_id: t.id, user_id: Number(solo.id) };
    const res = await h.request('PUT', `/v1/users/${solo.id}`, { as, body: update({ role: 'user' }) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'last_admin', source: { pointer: '/data/attributes/role' } });
    expect((await h.request('PUT', `/v1/users/${solo.id}`, { as, body: update({ on_call_role: 'user' }) })).status).toBe(200);
  });
});

describe('DELETE /v1/users/{id}', () => {
  it("revokes the user's personal keys and OAuth grants at once and emits user.deleted, never a secret", async () => {
    const id = await create('leaver@one.test', 'Lee Leaver');
    const key = await h.services.apiKeys.create(operator(h.team.id), { name: 'mine', kind: 'personal', user_id: Number(id) });
    const token = key.token;
    expect((await h.resolve(token)).status).toBe(200);
    await h.db.knex('users').where({ id }).update({ password_hash: 'scrypt$do-not-leak' });
    const grants = ['Session', 'Grant', 'AccessToken', 'RefreshToken'].map((model) => ({
      model,
      id: `${model}-${id}`,
      payload: JSON.stringify({ accountId: id, grantId: `g-${id}` }),
    }));
    const kept = { model: 'Grant', id: `kept-${id}`, payload: JSON.stringify({ accountId: String(h.team.userId) }) };
    await h.db.knex('oidc_payloads').insert([...grants, kept]);
    const seq = Number((await h.db.knex('outbox').max('seq as max').first())?.max ?? 0);

    const res = await h.request('DELETE', `/v1/users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, type: 'users', attributes: { email: 'leaver@one.test' } });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash|do-not-leak/);

    expect((await h.resolve(token)).status).toBe(401);
    expect((await h.request('GET', `/v1/users/${id}`)).status).toBe(404);
    expect(
      await h.db.knex('oidc_payloads').whereIn(
        'id',
        grants.map((g) => g.id),
      ),
    ).toEqual([]);
    expect(await h.db.knex('oidc_payloads').where({ id: kept.id })).toHaveLength(1);
    const events = (await h.db.knex('outbox').where('seq', '>', seq).orderBy('seq')).map((r) => r.payload);
    expect(events.map((e) => e.type)).toEqual(['api_key.deleted', 'user.deleted']);
    expect(events[0].data).toMatchObject({ id: key.resource.id, attributes: { kind: 'personal', user_id: Number(id) } });
    expect(events[1].data).toMatchObject({ id, attributes: { time_zone: 'Etc/UTC', full_name: 'Lee Leaver' } });
    expect(JSON.stringify(events)).not.toMatch(/password|hash|do-not-leak|fwk_/);
  });

  it('is for admins; refuses deleting yourself and the last admin with 422', async () => {
    expect((await h.request('DELETE', `/v1/users/${ids.bo}`, { as: asUser(ids.ana) })).status).toBe(403);
    expect((await h.request('DELETE', `/v1/users/${ids.ana}`, { as: asUser(ids.ana) })).status).toBe(403);
    const self = await h.request('DELETE', `/v1/users/${h.team.adminId}`);
    expect(self.status).toBe(422);
    expect(self.body.errors[0]).toMatchObject({ code: 'self_deletion', source: { pointer: '/data' } });

    const t = await h.services.identity.createTeam({ name: 'Last admin' });
    const only = await h.services.identity.createUser({ team_id: t.id, email: 'only@last.test', name: 'Only', role: 'admin' });
    const teamKey = { team_id: t.id, user_id: null };
    const last = await h.request('DELETE', `/v1/users/${only.id}`, { as: teamKey });
    expect(last.status).toBe(422);
    expect(last.body.errors[0].code).toBe('last_admin');
    const next = await h.services.identity.createUser({ team_id: t.id, email: 'next@last.test', name: 'Next', role: 'admin' });
    expect((await h.request('DELETE', `/v1/users/${only.id}`, { as: { team_id: t.id, user_id: Number(next.id) } })).status).toBe(200);
  });

  it('two admins deleting each other at once leave one of them', async () => {
    const t = await h.services.identity.createTeam({ name: 'Duel' });
    const [a, b] = await Promise.all(
      ['a', 'b'].map((n) => h.services.identity.createUser({ team_id: t.id, email: `${n}@duel.test`, name: n, role: 'admin' })),
    );
    const statuses = await Promise.all([
      h.request('DELETE', `/v1/users/${b.id}`, { as: { team_id: t.id, user_id: Number(a.id) } }),
      h.request('DELETE', `/v1/users/${a.id}`, { as: { team_id: t.id, user_id: Number(b.id) } }),
    ]);
    expect(statuses.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(await h.db.knex('users').where({ team_id: t.id, role: 'admin' })).toHaveLength(1);
  });

  it('honours If-Match', async () => {
    const id = await create('tagged@one.test', 'Tag Ged');
    const tag = (await h.request('GET', `/v1/users/${id}`)).headers.get('etag')!;
    expect(
      (await h.request('PUT', `/v1/users/${id}`, { body: update({ time_zone: 'Europe/Berlin' }), headers: { 'if-match': tag } })).status,
    ).toBe(200);
    expect((await h.request('DELETE', `/v1/users/${id}`, { headers: { 'if-match': tag } })).status).toBe(412);
    expect((await h.request('GET', `/v1/users/${id}`, { headers: { 'if-none-match': tag } })).status).toBe(200);
  });
});
