import type { Knex } from 'knex';
import { randomBytes, randomUUID } from 'node:crypto';
import { createSecretBox, resealStale, sealedColumn } from '@firewatch/secret-box';
import { startIncidentConfig, testSecretBox, type IncidentConfigHarness } from './support/incident-config-harness.js';
import { DB, OPS, seedGroups } from './support/groups.fixture.js';

let h: IncidentConfigHarness;

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'secrets', attributes } });
const create = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', '/v1/secrets', { body: body(attributes), principal });
const pointers = (res: { body: { errors: { source?: { pointer: string } }[] } }) => res.body.errors.map((e) => e.source?.pointer);
/** A value no other text of a response could contain by chance. */
const value = () => `s3cr3t-${randomUUID()}`;

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'secret.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('secrets', () => {
  it('creates, gets, updates with PUT, lists and deletes, the value never answered, emitted or stored in clear', async () => {
    const first = value();
    const second = value();
    const created = await create({ name: 'pagerduty_token', secret: first });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes).toEqual({
      name: 'pagerduty_token',
      kind: 'built_in',
      secret: '********',
      external_vault_mount: 'secret',
      external_vault_path: null,
      external_vault_version: 0,
      owner_group_ids: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const bodies: unknown[] = [created.body];
    const got = await h.call('GET', `/v1/secrets/${id}`);
    expect(got.status).toBe(200);
    bodies.push(got.body);
    const updated = await h.call('PUT', `/v1/secrets/${id}`, { body: body({ name: 'pagerduty_token', secret: second }) });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes.secret).toBe('********');
    bodies.push(updated.body);
    expect((await h.call('PATCH', `/v1/secrets/${id}`, { body: body({ name: 'x' }) })).status).toBe(404);

    // Stored sealed with the configured key, the newest value.
    const row = await h.db.knex('secrets').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(first);
    expect(JSON.stringify(row)).not.toContain(second);
    expect(testSecretBox.open(row.secret_ciphertext)).toBe(second);

    const list = await h.call('GET', '/v1/secrets');
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
    bodies.push(list.body);
    const deleted = await h.call('DELETE', `/v1/secrets/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, type: 'secrets', attributes: { name: 'pagerduty_token', secret: '********' } });
    bodies.push(deleted.body);
    expect((await h.call('GET', `/v1/secrets/${id}`)).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['secret.created', 'secret.updated', 'secret.deleted']);
    for (const text of [...bodies, ...mine.map((e) => e.body)].map((b) => JSON.stringify(b))) {
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
    }
  });

  it('keeps the vault fields as given (null: the defaults); the version may come as a string on create', async () => {
    const res = await create({
      name: 'vault_db',
      secret: 'db_password',
      kind: 'hashicorp_vault',
      external_vault_mount: 'kv',
      external_vault_path: 'prod/db',
      external_vault_version: '3',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.attributes).toMatchObject({
      kind: 'hashicorp_vault',
      external_vault_mount: 'kv',
      external_vault_path: 'prod/db',
      external_vault_version: 3,
    });
    const id = res.body.data.id;
    const put = await h.call('PUT', `/v1/secrets/${id}`, {
      body: body({ name: 'vault_db', external_vault_version: 4, external_vault_mount: null }),
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({ external_vault_mount: 'secret', external_vault_version: 4, kind: 'hashicorp_vault' });
    // The value did not change: a PUT without it keeps it.
    expect(testSecretBox.open((await h.db.knex('secrets').where({ id }).first()).secret_ciphertext)).toBe('db_password');
  });

  it.each([
    ['a missing name', { secret: 'x' }, '/data/attributes/name'],
    ['a missing secret', { name: 'x' }, '/data/attributes/secret'],
    ['an empty secret', { name: 'x', secret: '' }, '/data/attributes/secret'],
    ['an unknown kind', { name: 'x', secret: 'x', kind: 'aws' }, '/data/attributes/kind'],
    ['a negative version', { name: 'x', secret: 'x', external_vault_version: -1 }, '/data/attributes/external_vault_version'],
    ['a non-numeric version', { name: 'x', secret: 'x', external_vault_version: 'latest' }, '/data/attributes/external_vault_version'],
    ['the reference name of a vault field', { name: 'x', secret: 'x', hashicorp_vault_path: 'p' }, '/data/attributes/hashicorp_vault_path'],
    ['non-string owner groups', { name: 'x', secret: 'x', owner_group_ids: [1] }, '/data/attributes/owner_group_ids/0'],
  ])('refuses %s with a 422 and writes nothing', async (_name, attributes, pointer) => {
    const before = await h.db.knex('secrets').count({ n: '*' });
    const res = await create(attributes);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await h.db.knex('secrets').count({ n: '*' })).toEqual(before);
  });

  it('requires the name on update and refuses a kind change', async () => {
    const id = (await create({ name: 'needs_name', secret: 'v' })).body.data.id;
    const missing = await h.call('PUT', `/v1/secrets/${id}`, { body: body({ secret: 'w' }) });
    expect(missing.status).toBe(422);
    expect(pointers(missing)).toContain('/data/attributes/name');
    const kind = await h.call('PUT', `/v1/secrets/${id}`, { body: body({ name: 'needs_name', kind: 'hashicorp_vault' }) });
    expect(kind.status).toBe(422);
    expect(pointers(kind)).toContain('/data/attributes/kind');
  });

  it('refuses a duplicate name with 409 naming the attribute', async () => {
    expect((await create({ name: 'dup', secret: 'a' })).status).toBe(201);
    const dup = await create({ name: 'dup', secret: 'b' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });

  it("answers 404 for another team's secret on every operation, and for ids that are no uuid", async () => {
    const id = (await create({ name: 'team_one', secret: 'v' }, { team_id: 71 })).body.data.id;
    const other = { team_id: 72 };
    expect((await h.call('GET', `/v1/secrets/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('PUT', `/v1/secrets/${id}`, { body: body({ name: 'stolen' }), principal: other })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/secrets/${id}`, { principal: other })).status).toBe(404);
    expect((await h.call('GET', '/v1/secrets', { principal: other })).body.data).toEqual([]);
    expect((await h.call('GET', '/v1/secrets/not-a-uuid')).status).toBe(404);
  });

  it('shows a group-scoped key only the secrets of its groups, and lets it create only within them', async () => {
    const team = { team_id: 73 };
    await seedGroups(h.db.knex as Knex, 73, [OPS, DB]);
    const ops = { team_id: 73, group_ids: [OPS] };
    const opsSecret = (await create({ name: 'ops_only', secret: 'v', owner_group_ids: [OPS] }, team)).body.data.id;
    const dbSecret = (await create({ name: 'db_only', secret: 'v', owner_group_ids: [DB] }, team)).body.data.id;
    await create({ name: 'nobody', secret: 'v' }, team);

    const listed = await h.call('GET', '/v1/secrets', { principal: ops });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([opsSecret]);
    expect((await h.call('GET', `/v1/secrets/${dbSecret}`, { principal: ops })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/secrets/${dbSecret}`, { principal: ops })).status).toBe(404);
    expect((await create({ name: 'elsewhere', secret: 'v', owner_group_ids: [DB] }, ops)).status).toBe(403);
    expect((await create({ name: 'mine', secret: 'v', owner_group_ids: [OPS] }, ops)).status).toBe(201);
    const moved = await h.call('PUT', `/v1/secrets/${opsSecret}`, {
      body: body({ name: 'ops_only', owner_group_ids: [DB] }),
      principal: ops,
    });
    expect(moved.status).toBe(403);
    // The whole team sees every secret.
    expect((await h.call('GET', '/v1/secrets', { principal: team })).body.data).toHaveLength(4);
  });

  it('are re-sealed with the new first key after a rotation, leaving the records and answers as they were', async () => {
    const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
    const old = createSecretBox({ keys: [oldKey] });
    const plain = value();
    const { id } = (await create({ name: 'rotated_token', secret: plain })).body.data;
    await h.db
      .knex('secrets')
      .where({ id })
      .update({ secret_ciphertext: old.seal(plain) });
    const before = await h.db.knex('secrets').where({ id }).first();
    const answered = (await h.call('GET', `/v1/secrets/${id}`)).body;

    const rotated = createSecretBox({ keys: [newKey, oldKey] });
    const report = await resealStale(rotated, sealedColumn(h.db.knex, 'secrets', 'secret_ciphertext'));
    expect(report.resealed).toBeGreaterThanOrEqual(1);
    // The other secrets of this suite are sealed with the harness's development key, which `rotated` lacks.
    expect(report.unreadable.map((u) => u.id)).not.toContain(id);
    const after = await h.db.knex('secrets').where({ id }).first();
    expect(rotated.keyIdOf(after.secret_ciphertext)).toBe(rotated.sealingKeyId);
    expect(createSecretBox({ keys: [newKey] }).open(after.secret_ciphertext)).toBe(plain);
    expect(after.updated_at).toEqual(before.updated_at);
    expect((await h.call('GET', `/v1/secrets/${id}`)).body).toEqual(answered);
  });

  it('sorts and filters by name', async () => {
    const team = { team_id: 74 };
    for (const name of ['b_key', 'a_key', 'c_key']) await create({ name, secret: 'v' }, team);
    const names = (res: { body: { data: { attributes: { name: string } }[] } }) => res.body.data.map((r) => r.attributes.name);
    expect(names(await h.call('GET', '/v1/secrets?sort=name', { principal: team }))).toEqual(['a_key', 'b_key', 'c_key']);
    expect(names(await h.call('GET', '/v1/secrets?filter[name]=c_key', { principal: team }))).toEqual(['c_key']);
  });
});
