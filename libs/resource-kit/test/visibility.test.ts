import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_visibility');
});
afterAll(async () => {
  await kit?.close();
});

const board = (attributes: Record<string, unknown>) => ({ data: { type: 'boards', attributes } });
const owner = { user_id: 10 };
const stranger = { user_id: 11 };
const grantee = { user_id: 12 };
const editor = { user_id: 13 };

describe('a visibility rule', () => {
  let hidden: any;
  beforeAll(async () => {
    hidden = (await kit.call('POST', '/v1/boards', board({ name: 'Private', is_private: true }), owner)).body.data;
    await kit.call('POST', '/v1/boards', board({ name: 'Public' }), owner);
    await kit.db.knex('board_grants').insert([
      { board_id: hidden.id, user_id: grantee.user_id },
      { board_id: hidden.id, user_id: editor.user_id, can_edit: true },
    ]);
  });

  it('hides a private record from list, get, update and delete, for anyone but its owner and grantees', async () => {
    const names = async (p: Record<string, unknown>) =>
      (await kit.call('GET', '/v1/boards', undefined, p)).body.data.map((b: any) => b.attributes.name).sort();
    expect(await names(stranger)).toEqual(['Public']);
    expect(await names(owner)).toEqual(['Private', 'Public']);
    expect(await names(grantee)).toEqual(['Private', 'Public']);
    expect((await kit.call('GET', `/v1/boards/${hidden.id}`, undefined, stranger)).status).toBe(404);
    expect((await kit.call('PATCH', `/v1/boards/${hidden.id}`, board({ name: 'x' }), stranger)).status).toBe(404);
    expect((await kit.call('DELETE', `/v1/boards/${hidden.id}`, undefined, stranger)).status).toBe(404);
    expect((await kit.db.knex('boards').where({ id: hidden.id }).first()).name).toBe('Private');
    expect((await kit.call('GET', `/v1/boards/${hidden.id}`, undefined, grantee)).status).toBe(200);
  });

  it('lets a read-only grantee see but not change, and an editing grantee change', async () => {
    const readOnly = await kit.call('PATCH', `/v1/boards/${hidden.id}`, board({ name: 'x' }), grantee);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.errors[0].code).toBe('not_granted');
    expect((await kit.call('DELETE', `/v1/boards/${hidden.id}`, undefined, grantee)).status).toBe(403);
    // Writes an action makes meet the same rule.
    expect((await kit.call('POST', '/v1/boards/rename_all', { name: 'mine now' }, grantee)).status).toBe(403);
    expect((await kit.call('PATCH', `/v1/boards/${hidden.id}`, board({ name: 'Private!' }), editor)).status).toBe(200);
    expect((await kit.db.knex('boards').where({ id: hidden.id }).first()).name).toBe('Private!');
  });
});

describe('owner groups and group-scoped keys', () => {
  it('shows a group key only the records its groups own, and lets it create only within them', async () => {
    const ours = (await kit.call('POST', '/v1/boards', board({ name: 'Ours', owner_group_ids: ['g1', 'g2'] }))).body.data;
    const theirs = (await kit.call('POST', '/v1/boards', board({ name: 'Theirs', owner_group_ids: ['g3'] }))).body.data;
    const key = { group_ids: ['g2'] };
    const listed = (await kit.call('GET', '/v1/boards', undefined, key)).body.data.map((b: any) => b.id);
    expect(listed).toContain(ours.id);
    expect(listed).not.toContain(theirs.id);
    expect((await kit.call('GET', `/v1/boards/${theirs.id}`, undefined, key)).status).toBe(404);
    expect((await kit.call('DELETE', `/v1/boards/${theirs.id}`, undefined, key)).status).toBe(404);
    expect((await kit.call('POST', '/v1/boards', board({ name: 'Elsewhere', owner_group_ids: ['g3'] }), key)).status).toBe(403);
    expect((await kit.call('POST', '/v1/boards', board({ name: 'Mine', owner_group_ids: ['g2'] }), key)).status).toBe(201);
    expect((await kit.call('PATCH', `/v1/boards/${ours.id}`, board({ owner_group_ids: ['g3'] }), key)).status).toBe(403);
    // A group key moves its own groups only: g1 stays on the record it shares.
    expect((await kit.call('PATCH', `/v1/boards/${ours.id}`, board({ owner_group_ids: ['g2'] }), key)).status).toBe(403);
    expect(
      (await kit.call('PATCH', `/v1/boards/${ours.id}`, board({ owner_group_ids: ['g1', 'g2', 'g4'] }), { group_ids: ['g2', 'g4'] }))
        .status,
    ).toBe(200);
    // A record key may move a record it lists between groups.
    expect((await kit.call('PATCH', `/v1/boards/${ours.id}`, board({ owner_group_ids: ['g1'] }), { record_ids: [ours.id] })).status).toBe(
      200,
    );
  });
});
