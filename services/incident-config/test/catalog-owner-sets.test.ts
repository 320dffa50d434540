import type { Knex } from 'knex';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';
import { DB, OPS, seedGroups } from './support/groups.fixture.js';

let h: IncidentConfigHarness;
beforeAll(async () => {
  h = await startIncidentConfig();
  await seedGroups(h.db.knex as Knex, 1, [OPS, DB]);
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
type Answer = Awaited<ReturnType<IncidentConfigHarness['call']>>;
const ops = { group_ids: [OPS] };
const body = (type: string, attributes: Attrs) => ({ data: { type, attributes } });
const create = (type: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/${type}`, { body: body(type, attributes), principal });
const put = (type: string, id: string, attributes: Attrs, principal?: Attrs) =>
  h.call('PUT', `/v1/${type}/${id}`, { body: body(type, attributes), principal });
const upsert = (type: string, entities: Attrs[], principal?: Attrs) =>
  h.call('POST', `/v1/${type}/bulk_upsert`, { body: { entities }, principal });
const refusal = (res: Answer) => [res.status, res.body?.errors?.[0]?.code];
const idOf = (res: Answer) => {
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.data.id as string;
};

// Security issue 19, finding 5: a conflict, slug or error tells a caller nothing of records it cannot see (docs/security.md).
describe.each(['services', 'functionalities'])('%s: names and external_ids unique per owner set', (type) => {
  it('lets a group key take a name and an external_id another group holds, and still refuses them within a set it sees', async () => {
    const theirs = idOf(await create(type, { name: 'Payments', external_id: 'payments', owner_group_ids: [DB] }));
    const mine = await create(type, { name: 'payments', external_id: 'payments', owner_group_ids: [OPS] }, ops);
    expect(idOf(mine)).not.toBe(theirs);
    expect(mine.body.data.attributes).toMatchObject({ name: 'payments', external_id: 'payments', owner_group_ids: [OPS] });
    // The same set, in another order or repeated, is the same set: that record is one the key sees.
    const again = await create(type, { name: 'PAYMENTS', owner_group_ids: [OPS, OPS] }, ops);
    expect(refusal(again)).toEqual([409, 'already_exists']);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/name');
    const shared = idOf(await create(type, { name: 'Ledger', external_id: 'ledger', owner_group_ids: [OPS, DB] }));
    expect(refusal(await create(type, { name: 'Ledger', owner_group_ids: [DB, OPS] }, ops))).toEqual([409, 'already_exists']);
    expect(refusal(await create(type, { name: 'Other', external_id: 'ledger', owner_group_ids: [DB, OPS] }, ops))).toEqual([
      409,
      'already_exists',
    ]);
    // An unrestricted caller sees both, told apart by their owner groups.
    const listed = await h.call('GET', `/v1/${type}?filter[external_id]=payments`);
    expect(listed.body.data.map((r: { attributes: Attrs }) => r.attributes.owner_group_ids).sort()).toEqual([[DB], [OPS]]);
    expect(shared).toBeDefined();
  });

  it('refuses a rename or a move onto a name its new owner set holds, and allows one its old set held only elsewhere', async () => {
    idOf(await create(type, { name: 'Search', owner_group_ids: [OPS] }));
    const moving = idOf(await create(type, { name: 'Search', owner_group_ids: [DB] }));
    expect(refusal(await put(type, moving, { owner_group_ids: [OPS] }))).toEqual([409, 'already_exists']);
    const renamed = idOf(await create(type, { name: 'Indexer', owner_group_ids: [OPS] }, ops));
    expect(refusal(await put(type, renamed, { name: 'search' }, ops))).toEqual([409, 'already_exists']);
    expect((await put(type, moving, { name: 'Search', owner_group_ids: [DB, OPS] })).status).toBe(200);
  });
});

describe.each(['services', 'functionalities'])('%s: slugs and group keys', (type) => {
  it('refuses a slug a group key chooses (403 group_scoped) whether or not it is taken, on create and update alike', async () => {
    idOf(await create(type, { name: 'Billing', slug: 'billing', owner_group_ids: [DB] }));
    for (const slug of ['billing', 'billing-free']) {
      const res = await create(type, { name: 'Billing', slug, owner_group_ids: [OPS] }, ops);
      expect(refusal(res)).toEqual([403, 'group_scoped']);
    }
    const mine = await create(type, { name: 'Billing', owner_group_ids: [OPS] }, ops);
    const { slug } = mine.body.data.attributes as { slug: string };
    expect(slug).toMatch(/^billing-[a-z]{10}$/);
    expect(refusal(await put(type, idOf(mine), { slug: 'billing' }, ops))).toEqual([403, 'group_scoped']);
    expect(refusal(await put(type, idOf(mine), { slug: 'billing-mine' }, ops))).toEqual([403, 'group_scoped']);
    // Sending back the slug it has changes nothing of it: a PUT of what was read passes.
    expect((await put(type, idOf(mine), { slug, description: 'kept' }, ops)).status).toBe(200);
    // An unrestricted caller sees every slug: it may choose one, and a taken one is its 409.
    expect(refusal(await create(type, { name: 'Billing 2', slug: 'billing' }))).toEqual([409, 'slug_taken']);
    expect((await create(type, { name: 'Billing 3', slug: 'billing-three', owner_group_ids: [OPS] })).status).toBe(201);
  });
});

describe.each(['services', 'functionalities'])('%s: bulk upsert by an external_id several owner sets hold', (type) => {
  it("creates a group key's own record beside another group's, touching neither the other nor telling of it", async () => {
    const theirs = idOf(await create(type, { name: 'Checkout', external_id: 'checkout', owner_group_ids: [DB] }));
    const res = await upsert(type, [{ external_id: 'checkout', name: 'Checkout', description: 'ours' }], ops);
    expect([res.status, res.body.errors]).toEqual([200, undefined]);
    expect(res.body.data[0].id).not.toBe(theirs);
    expect(res.body.data[0].attributes).toMatchObject({ external_id: 'checkout', owner_group_ids: [OPS], description: 'ours' });
    expect(await h.db.knex(type).where({ id: theirs }).first()).toMatchObject({
      name: 'Checkout',
      description: null,
      owner_group_ids: [DB],
    });
    // Again: the key finds its own record and updates it.
    const again = await upsert(type, [{ external_id: 'checkout', description: 'ours again' }], ops);
    expect(again.body.data[0].id).toBe(res.body.data[0].id);
    expect(await h.db.knex(type).where({ external_id: 'checkout' }).pluck('id')).toHaveLength(2);
  });

  it('refuses, at that entity, an external_id naming several records the caller sees, writing nothing', async () => {
    const before = await h.db.knex(type).where({ external_id: 'checkout' }).orderBy('id');
    const res = await upsert(type, [
      { external_id: 'fresh-one', name: 'Fresh one' },
      { external_id: 'checkout', description: 'which?' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      code: 'invalid_entity',
      index: 1,
      external_id: 'checkout',
      source: { pointer: '/entities/1' },
    });
    expect(res.body.errors[0].errors).toEqual([expect.stringContaining('names 2 records')]);
    expect(await h.db.knex(type).where({ external_id: 'checkout' }).orderBy('id')).toEqual(before);
    expect(await h.db.knex(type).where({ external_id: 'fresh-one' })).toEqual([]);
    // A key of both groups sees both too.
    expect((await upsert(type, [{ external_id: 'checkout', description: 'which?' }], { group_ids: [OPS, DB] })).status).toBe(422);
  });

  it('deletes by external_id every record the caller sees with it: a group key its own, an unrestricted caller all', async () => {
    const mine = await h.call('POST', `/v1/${type}/bulk_delete`, { principal: ops, body: { external_ids: ['checkout'] } });
    expect(mine.body.data).toEqual({ deleted_external_ids: ['checkout'], failed_external_ids: [], not_found_external_ids: [] });
    expect(await h.db.knex(type).where({ external_id: 'checkout' }).pluck('owner_group_ids')).toEqual([[DB]]);
    idOf(await create(type, { name: 'Checkout', external_id: 'checkout', owner_group_ids: [OPS] }));
    const all = await h.call('POST', `/v1/${type}/bulk_delete`, { body: { external_ids: ['checkout'] } });
    expect(all.body.data).toEqual({ deleted_external_ids: ['checkout'], failed_external_ids: [], not_found_external_ids: [] });
    expect(await h.db.knex(type).where({ external_id: 'checkout' })).toEqual([]);
  });
});

describe.each(['services', 'functionalities'])('%s: record-scoped keys and unique attributes', (type) => {
  it('refuses a record key changing a name, external_id, slug or owner groups of a record it lists (403 record_scoped), taken or not', async () => {
    const listed = idOf(await create(type, { name: 'Listed', external_id: 'listed', owner_group_ids: [OPS] }));
    idOf(await create(type, { name: 'Unlisted', external_id: 'unlisted', slug: 'unlisted', owner_group_ids: [OPS] }));
    const key = { record_ids: [listed] };
    for (const attributes of [
      { name: 'Unlisted' },
      { name: 'Free name' },
      { external_id: 'unlisted' },
      { external_id: 'free' },
      { slug: 'unlisted' },
      { slug: 'free' },
      { owner_group_ids: [DB] },
    ]) {
      expect([attributes, refusal(await put(type, listed, attributes, key))]).toEqual([attributes, [403, 'record_scoped']]);
    }
    // What it has, sent back (owner groups as the same set), and anything else stay writable.
    const kept = await put(type, listed, { name: 'Listed', external_id: 'listed', owner_group_ids: [OPS, OPS], description: 'mine' }, key);
    expect(kept.status).toBe(200);
    expect(await h.db.knex(type).where({ id: listed }).first()).toMatchObject({
      name: 'Listed',
      external_id: 'listed',
      description: 'mine',
    });
  });
});
