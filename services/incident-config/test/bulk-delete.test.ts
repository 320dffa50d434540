import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;
beforeAll(async () => {
  h = await startIncidentConfig();
});
afterAll(async () => h?.close());

const bulkDelete = (type: string, body: unknown, principal?: Record<string, unknown>) =>
  h.call('POST', `/v1/${type}/bulk_delete`, { body, principal });
const seed = async (type: string, externalIds: string[]) => {
  const res = await h.call('POST', `/v1/${type}/bulk_upsert`, {
    body: { entities: externalIds.map((id) => ({ external_id: id, name: `${type} ${id}` })) },
  });
  expect(res.status).toBe(200);
};
const left = (table: string) => h.db.knex(table).orderBy('external_id').pluck('external_id');
const deletedEvents = async (type: string) => Number((await h.db.knex('outbox').where({ type }).count({ n: '*' }))[0].n);

describe.each([
  ['functionalities', 'functionality'],
  ['services', 'service'],
  ['environments', 'environment'],
])('%s bulk_delete', (type, event) => {
  it('deletes the named external_ids and reports those it did not find, one event per record', async () => {
    await seed(type, ['a', 'b', 'c']);
    const res = await bulkDelete(type, { external_ids: ['a', 'c', 'nope', 'a'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted_external_ids: ['a', 'c'], failed_external_ids: [], not_found_external_ids: ['nope'] } });
    expect(await left(type)).toEqual(['b']);
    expect(await deletedEvents(`${event}.deleted`)).toBe(2);
  });

  it('prunes the records of one provenance except those kept, and leaves records without external_id', async () => {
    await seed(type, ['k1', 'k2', 'gone']);
    await h.call('POST', `/v1/${type}`, { body: { data: { type, attributes: { name: `${type} unkeyed` } } } });
    const res = await bulkDelete(type, { managed_by: 'api', keep_external_ids: ['k1', 'k2'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted_external_ids: ['b', 'gone'], failed_external_ids: [], not_found_external_ids: [] });
    expect(await left(type)).toEqual(['k1', 'k2', null]);
    const nothing = await bulkDelete(type, { managed_by: 'terraform' });
    expect(nothing.body.data.deleted_external_ids).toEqual([]);
  });

  it.each([
    ['an empty list', { external_ids: [] }],
    ['both modes', { external_ids: ['k1'], managed_by: 'api' }],
    ['web provenance', { managed_by: 'web' }],
    ['more than 100', { external_ids: Array.from({ length: 101 }, (_, i) => `x${i}`) }],
  ])('refuses %s with a 422 and deletes nothing', async (_case, body) => {
    const before = await left(type);
    expect((await bulkDelete(type, body)).status).toBe(422);
    expect(await left(type)).toEqual(before);
  });

  it('needs delete capability and keeps teams apart', async () => {
    expect((await bulkDelete(type, { external_ids: ['k1'] }, { capabilities: ['read', 'create', 'update'] })).status).toBe(403);
    const other = await bulkDelete(type, { external_ids: ['k1'] }, { team_id: 2 });
    expect(other.body.data).toMatchObject({ deleted_external_ids: [], not_found_external_ids: ['k1'] });
    expect(await left(type)).toContain('k1');
  });
});
