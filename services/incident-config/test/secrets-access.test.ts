import type { Knex } from 'knex';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';
import { DB, groupId, OPS, seedGroups } from './support/groups.fixture.js';

const [A, B] = [groupId('a'), groupId('b')];

// Security issue 19: finding 5 (a name conflict told a group key of another group's
// secret) and section 6 (who writes a secret, and who sees where it lives in a vault).
let h: IncidentConfigHarness;

type Principal = Record<string, unknown>;
type Answer = Awaited<ReturnType<IncidentConfigHarness['call']>>;
const body = (attributes: Record<string, unknown>) => ({ data: { type: 'secrets', attributes } });
const VAULT = ['external_vault_mount', 'external_vault_path', 'external_vault_version'];

/** The callers of one team: admins write every secret; members (group keys) their groups'; nobody else any. */
function callers(team_id: number) {
  return {
    admin: { team_id },
    readOnlyAdmin: { team_id, capabilities: ['read'] },
    user: { team_id, role: 'user' },
    personal: { team_id, role: 'user', user_id: 7, credential: { type: 'api_key', id: 'personal-key', kind: 'personal' } },
    observer: { team_id, role: 'observer' },
    ops: { team_id, role: 'user', group_ids: [OPS], credential: { type: 'api_key', id: 'ops-key', kind: 'group' } },
    record: (ids: string[], role = 'admin') => ({
      team_id,
      role,
      record_ids: ids,
      credential: { type: 'api_key', id: 'record-key', kind: 'record' },
    }),
  };
}

const create = (attributes: Record<string, unknown>, principal: Principal) =>
  h.call('POST', '/v1/secrets', { body: body({ secret: 'v', ...attributes }), principal });
const put = (id: string, attributes: Record<string, unknown>, principal: Principal) =>
  h.call('PUT', `/v1/secrets/${id}`, { body: body(attributes), principal });
const idOf = (res: Answer) => {
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id as string;
};
const refusal = (res: Answer) => [res.status, res.body.errors?.[0]?.code];

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'secret.*' });
  for (let team = 81; team <= 88; team++) await seedGroups(h.db.knex as Knex, team, [OPS, DB, A, B]);
});

afterAll(async () => {
  await h?.close();
});

describe('secret names are unique per owner set, so a conflict tells only of a secret the writer sees', () => {
  it("lets a group key use a name another group's secret has, answering as for a name nobody has", async () => {
    const c = callers(81);
    idOf(await create({ name: 'token', owner_group_ids: [DB] }, c.admin));
    const taken = await create({ name: 'token', owner_group_ids: [OPS] }, c.ops);
    const free = await create({ name: 'unheard_of', owner_group_ids: [OPS] }, c.ops);
    expect([taken.status, free.status]).toEqual([201, 201]);
    // Within the owner set the key sees, the name is taken.
    const again = await create({ name: 'token', owner_group_ids: [OPS] }, c.ops);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    const listed = await h.call('GET', '/v1/secrets', { principal: c.ops });
    expect(listed.body.data.map((r: { attributes: { name: string } }) => r.attributes.name).sort()).toEqual(['token', 'unheard_of']);
  });

  it('compares owner sets as sets: order and repeats do not make another set', async () => {
    const c = callers(82);
    idOf(await create({ name: 'pair', owner_group_ids: [A, B] }, c.admin));
    expect((await create({ name: 'pair', owner_group_ids: [B, A, B] }, c.admin)).status).toBe(409);
    idOf(await create({ name: 'pair', owner_group_ids: [A] }, c.admin));
    idOf(await create({ name: 'pair' }, c.admin));
    expect((await create({ name: 'pair', owner_group_ids: [] }, c.admin)).status).toBe(409);
  });

  it('renames and moves conflict only with a secret the writer sees', async () => {
    const c = callers(83);
    idOf(await create({ name: 'shared', owner_group_ids: [DB] }, c.admin));
    const x = idOf(await create({ name: 'x', owner_group_ids: [OPS] }, c.ops));
    expect((await put(x, { name: 'shared' }, c.ops)).status).toBe(200);
    const y = idOf(await create({ name: 'y', owner_group_ids: [OPS] }, c.ops));
    expect((await put(y, { name: 'shared' }, c.ops)).status).toBe(409);

    // Adding a group moves the secret to another set: the conflict there holds the key's group too.
    idOf(await create({ name: 'both', owner_group_ids: [DB, OPS] }, c.admin));
    const mine = idOf(await create({ name: 'both', owner_group_ids: [OPS] }, c.ops));
    const moved = await put(mine, { name: 'both', owner_group_ids: [OPS, DB] }, c.ops);
    expect(moved.status).toBe(409);
    const seen = await h.call('GET', '/v1/secrets?filter[name]=both', { principal: c.ops });
    expect(seen.body.data.map((r: { attributes: { owner_group_ids: string[] } }) => r.attributes.owner_group_ids)).toEqual([
      [DB, OPS],
      [OPS],
    ]);
    // An admin sees every secret, so every conflict is one it may be told of.
    expect((await put(mine, { name: 'shared', owner_group_ids: [DB] }, c.admin)).status).toBe(409);
  });

  it('keeps a record-scoped key from renaming or moving a secret, whether or not the new place is taken', async () => {
    const c = callers(84);
    idOf(await create({ name: 'taken', owner_group_ids: [DB] }, c.admin));
    const id = idOf(await create({ name: 'listed', owner_group_ids: [DB] }, c.admin));
    const key = c.record([id]);
    const toTaken = await put(id, { name: 'taken' }, key);
    const toFree = await put(id, { name: 'free' }, key);
    expect([refusal(toTaken), refusal(toFree)]).toEqual([
      [403, 'record_scoped'],
      [403, 'record_scoped'],
    ]);
    expect(refusal(await put(id, { name: 'listed', owner_group_ids: [OPS] }, key))).toEqual([403, 'record_scoped']);
    // Its own name and owner set, the same set in another order included, stay writable.
    expect((await put(id, { name: 'listed', secret: 'rotated', owner_group_ids: [DB, DB] }, key)).status).toBe(200);
  });
});

describe('only admins and members of its owner groups write a secret', () => {
  it('refuses a team-wide user key, a non-admin personal key and an observer on create, update and delete, changing nothing', async () => {
    const c = callers(85);
    const id = idOf(await create({ name: 'guarded', owner_group_ids: [OPS] }, c.admin));
    const before = await h.db.knex('secrets').where({ id }).first();
    for (const who of [c.user, c.personal, c.observer, c.record([id], 'user')]) {
      expect((await create({ name: `mine_${Math.random()}` }, who)).status).toBe(403);
      expect((await put(id, { name: 'guarded', secret: 'overwritten', external_vault_path: 'evil/path' }, who)).status).toBe(403);
      expect((await h.call('DELETE', `/v1/secrets/${id}`, { principal: who })).status).toBe(403);
    }
    expect(refusal(await create({ name: 'by_user' }, c.user))).toEqual([403, 'not_granted']);
    expect(refusal(await put(id, { name: 'guarded' }, c.personal))).toEqual([403, 'not_granted']);
    expect(await h.db.knex('secrets').where({ id }).first()).toEqual(before);
    expect(await h.db.knex('secrets').where({ team_id: 85 }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it("lets a member write its groups' secrets, a shared one included, and an admin any", async () => {
    const c = callers(86);
    const own = idOf(await create({ name: 'own', owner_group_ids: [OPS] }, c.ops));
    expect((await put(own, { name: 'own', secret: 'w', external_vault_path: 'ops/own' }, c.ops)).status).toBe(200);
    const shared = idOf(await create({ name: 'shared', owner_group_ids: [DB, OPS] }, c.admin));
    expect((await put(shared, { name: 'shared', secret: 'w' }, c.ops)).status).toBe(200);
    expect((await h.call('DELETE', `/v1/secrets/${own}`, { principal: c.ops })).status).toBe(200);
    const theirs = idOf(await create({ name: 'theirs', owner_group_ids: [DB] }, c.admin));
    expect((await put(theirs, { name: 'theirs', secret: 'w' }, c.admin)).status).toBe(200);
    expect((await h.call('DELETE', `/v1/secrets/${theirs}`, { principal: c.admin })).status).toBe(200);
  });
});

describe('where a secret lives in a vault is answered only to those who may write it', () => {
  const vault = { kind: 'hashicorp_vault', external_vault_mount: 'kv', external_vault_path: 'prod/db', external_vault_version: 3 };

  it('shows admins and members the vault fields, and leaves them out for every other reader, in gets and lists', async () => {
    const c = callers(87);
    const created = await create({ name: 'vaulted', owner_group_ids: [OPS], ...vault }, c.admin);
    const id = idOf(created);
    expect(created.body.data.attributes).toMatchObject(vault);
    const shown = async (who: Principal) => {
      const got = (await h.call('GET', `/v1/secrets/${id}`, { principal: who })).body.data.attributes;
      const listed = (await h.call('GET', '/v1/secrets', { principal: who })).body.data.find((r: { id: string }) => r.id === id).attributes;
      expect(listed).toEqual(got);
      expect(got).toMatchObject({ name: 'vaulted', kind: 'hashicorp_vault', secret: '********', owner_group_ids: [OPS] });
      return VAULT.filter((name) => name in got);
    };
    for (const who of [c.admin, c.ops, c.record([id])]) expect(await shown(who)).toEqual(VAULT);
    for (const who of [c.user, c.personal, c.observer, c.readOnlyAdmin, c.record([id], 'user')]) expect(await shown(who)).toEqual([]);
  });

  it('answers a member its writes with them, and keeps them in the events, which only unrestricted admins receive', async () => {
    const c = callers(88);
    const created = await create({ name: 'by_member', owner_group_ids: [OPS], ...vault }, c.ops);
    const id = idOf(created);
    expect(created.body.data.attributes).toMatchObject(vault);
    expect((await put(id, { name: 'by_member', external_vault_version: 4 }, c.ops)).body.data.attributes).toMatchObject({
      external_vault_version: 4,
    });
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 2);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => (e.body.data as { attributes: Record<string, unknown> }).attributes.external_vault_path)).toEqual([
      'prod/db',
      'prod/db',
    ]);
  });

  it('documents who writes a secret, and the vault fields as absent for other callers', async () => {
    const doc = (await h.call('GET', '/openapi.json', { principal: null })).body;
    for (const operation of [doc.paths['/v1/secrets'].post, doc.paths['/v1/secrets/{id}'].put, doc.paths['/v1/secrets/{id}'].delete]) {
      expect(operation.description).toMatch(/admin role or a group-scoped key holding one of the record's owner groups/);
    }
    const attributes = doc.components.schemas.secrets_resource.properties.attributes;
    expect(attributes.required).toEqual(expect.arrayContaining(['name', 'secret', 'owner_group_ids']));
    for (const name of VAULT) {
      expect(attributes.required).not.toContain(name);
      expect(attributes.properties[name].description).toMatch(/only to a caller who may update/);
    }
  });
});
