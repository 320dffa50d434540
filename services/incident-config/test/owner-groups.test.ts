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
const ops = { group_ids: [OPS] };
const body = (type: string, attributes: Attrs) => ({ data: { type, attributes } });
const create = (type: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/${type}`, { body: body(type, attributes), principal });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id).sort();

// docs/security.md: on resources that carry owner_group_ids, a group key sees and changes only its groups' records, bulk operations included.
describe.each(['services', 'functionalities'])('%s and group-scoped keys', (type) => {
  const records: Record<string, string> = {};
  beforeAll(async () => {
    for (const [name, groups] of [
      ['ours', [OPS]],
      ['theirs', [DB]],
      ['shared', [OPS, DB]],
      ['nobodys', []],
    ] as const) {
      const res = await create(type, { name: `${type} ${name}`, external_id: `${type}-${name}`, owner_group_ids: groups });
      expect(res.status).toBe(201);
      records[name] = res.body.data.id;
    }
  });

  it("shows a group key only its groups' records and hides the others as another team's (404)", async () => {
    expect(ids(await h.call('GET', `/v1/${type}?page[size]=100`, { principal: ops }))).toEqual([records.ours, records.shared].sort());
    for (const hidden of [records.theirs, records.nobodys]) {
      expect((await h.call('GET', `/v1/${type}/${hidden}`, { principal: ops })).status).toBe(404);
      expect((await h.call('PUT', `/v1/${type}/${hidden}`, { body: body(type, { description: 'mine' }), principal: ops })).status).toBe(
        404,
      );
      expect((await h.call('DELETE', `/v1/${type}/${hidden}`, { principal: ops })).status).toBe(404);
    }
    expect((await h.call('GET', `/v1/${type}/${type}-theirs`, { principal: ops })).status).toBe(404);
    expect(await h.db.knex(type).where({ id: records.theirs }).first()).toMatchObject({ description: null });
  });

  it('lets a group key create only within its groups and keep other owners on a shared record', async () => {
    for (const groups of [[DB], [], undefined]) {
      const res = await create(type, { name: `${type} elsewhere ${String(groups)}`, ...(groups ? { owner_group_ids: groups } : {}) }, ops);
      expect(res.status).toBe(403);
    }
    expect((await create(type, { name: `${type} made by ops`, owner_group_ids: [OPS] }, ops)).status).toBe(201);
    const dropDb = await h.call('PUT', `/v1/${type}/${records.shared}`, { body: body(type, { owner_group_ids: [OPS] }), principal: ops });
    expect(dropDb.status).toBe(403);
    const away = await h.call('PUT', `/v1/${type}/${records.ours}`, { body: body(type, { owner_group_ids: [DB] }), principal: ops });
    expect(away.status).toBe(403);
  });

  it("upserts in bulk only its groups' records, and creates new ones owned by its groups", async () => {
    const res = await h.call('POST', `/v1/${type}/bulk_upsert`, {
      principal: ops,
      body: {
        entities: [
          { external_id: `${type}-ours`, description: 'bulk' },
          { external_id: `${type}-bulk-new`, name: `${type} bulk new` },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { attributes: Attrs }) => [r.attributes.external_id, r.attributes.owner_group_ids])).toEqual([
      [`${type}-ours`, [OPS]],
      [`${type}-bulk-new`, [OPS]],
    ]);
    // Another group's record is not the key's to update, nor to learn of: naming its external_id
    // makes the key's own record (unique per owner set), and the other stays as it was.
    const theirs = await h.call('POST', `/v1/${type}/bulk_upsert`, {
      principal: ops,
      body: { entities: [{ external_id: `${type}-theirs`, name: `${type} theirs`, description: 'bulk' }] },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data[0].id).not.toBe(records.theirs);
    expect(theirs.body.data[0].attributes).toMatchObject({ external_id: `${type}-theirs`, owner_group_ids: [OPS] });
    expect(await h.db.knex(type).where({ id: records.theirs }).first()).toMatchObject({
      name: `${type} theirs`,
      description: null,
      owner_group_ids: [DB],
    });
  });

  it("deletes in bulk only its groups' records: the others are not found, by external_id or by prune", async () => {
    const named = await h.call('POST', `/v1/${type}/bulk_delete`, {
      principal: ops,
      body: { external_ids: [`${type}-nobodys`, `${type}-bulk-new`] },
    });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual({
      deleted_external_ids: [`${type}-bulk-new`],
      failed_external_ids: [],
      not_found_external_ids: [`${type}-nobodys`],
    });
    const pruned = await h.call('POST', `/v1/${type}/bulk_delete`, { principal: ops, body: { managed_by: 'api' } });
    expect(pruned.status).toBe(200);
    // Its own `-theirs` (made above) goes; the other group's stays.
    expect(pruned.body.data.deleted_external_ids.sort()).toEqual([`${type}-ours`, `${type}-shared`, `${type}-theirs`]);
    expect((await h.db.knex(type).whereIn('id', [records.theirs, records.nobodys]).pluck('id')).sort()).toEqual(
      [records.theirs, records.nobodys].sort(),
    );
  });
});

describe('incidents including services for a group key', () => {
  it('include only the services its groups own', async () => {
    const mine = (await create('services', { name: 'Included ops', owner_group_ids: [OPS] })).body.data.id;
    const other = (await create('services', { name: 'Included db', owner_group_ids: [DB] })).body.data.id;
    const incident = (await create('incidents', { title: 'Owner groups', service_ids: [mine, other] })).body.data.id;
    const got = await h.call('GET', `/v1/incidents/${incident}?include=services`, { principal: ops });
    expect(got.status).toBe(200);
    expect(got.body.included.map((r: { id: string }) => r.id)).toEqual([mine]);
  });
});
