import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';
import { OPS, seedGroups } from './support/groups.fixture.js';

let h: IncidentConfigHarness;

type Res = { status: number; body: any };
const body = (attributes: Record<string, unknown>) => ({ data: { type: 'retrospective_processes', attributes } });
const create = (attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  h.call('POST', '/v1/retrospective_processes', { body: body(attributes), principal });
const list = (principal: Record<string, unknown>, query = '') => h.call('GET', `/v1/retrospective_processes${query}`, { principal });
const pointers = (res: Res) => res.body.errors.map((e: { source?: { pointer: string } }) => e.source?.pointer);
const count = async (where: Record<string, unknown>) =>
  Number((await h.db.knex('retrospective_processes').where(where).count({ n: '*' }))[0].n);
const CRITERIA = '/data/attributes/retrospective_process_matching_criteria';
let teams = 100;
/** A team of its own for each test, so defaults do not mix. */
const freshTeam = () => ({ team_id: ++teams });

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'retrospective_process.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('retrospective processes', () => {
  it("makes the team's default with its first process, announces both, and keeps one default", async () => {
    const team = freshTeam();
    expect((await list(team)).body.data).toEqual([]);
    const severe = await Promise.all(
      ['sev0', 'sev1'].map(async (s) => (await h.call('GET', `/v1/severities/${s}`, { principal: team })).body.data.id),
    );
    const created = await create(
      { name: 'Security', copy_from: 'starter_template', retrospective_process_matching_criteria: { severity_ids: severe } },
      team,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toEqual({
      name: 'Security',
      description: null,
      is_default: false,
      retrospective_process_matching_criteria: { severity_ids: severe },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const all = (await list(team)).body.data;
    expect(all.map((p: { attributes: { name: string; is_default: boolean } }) => [p.attributes.name, p.attributes.is_default])).toEqual([
      ['Default', true],
      ['Security', false],
    ]);
    const defaultId = all[0].id;
    expect((await list(team, '?filter[is_default]=true')).body.data.map((p: { id: string }) => p.id)).toEqual([defaultId]);

    // Copying from a process of the team, the default included; still one default.
    expect((await create({ name: 'Copied', copy_from: defaultId }, team)).status).toBe(201);
    expect((await create({ name: 'Copied again', copy_from: created.body.data.id.toUpperCase() }, team)).status).toBe(201);
    expect(await count({ team_id: team.team_id, is_default: true })).toBe(1);

    await h.events!.waitFor((es) => es.some((e) => (e.body.data as { id: string }).id === defaultId));
    const announced = h.events!.events.filter(
      (e) =>
        e.routingKey === 'retrospective_process.created' && [defaultId, created.body.data.id].includes((e.body.data as { id: string }).id),
    );
    expect(announced).toHaveLength(2);
  });

  it('lets a first process be called Default, naming the fallback apart', async () => {
    const team = freshTeam();
    expect((await create({ name: 'default', copy_from: 'starter_template' }, team)).status).toBe(201);
    const names = (await list(team, '')).body.data.map((p: { attributes: { name: string } }) => p.attributes.name);
    expect(names).toEqual(['Default (fallback)', 'default']);
  });

  it('makes one default when first creates race', async () => {
    const team = freshTeam();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ name: `Racer ${i}`, copy_from: 'starter_template' }, team)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const defaults = (await list(team, '?filter[is_default]=true')).body.data;
    expect(defaults).toHaveLength(1);
  });

  it('gets, updates with PUT and deletes a process, with events', async () => {
    const team = freshTeam();
    await seedGroups(h.db.knex as Knex, team.team_id, [OPS]);
    const { id } = (await create({ name: 'Ops', copy_from: 'starter_template', description: 'For ops' }, team)).body.data;
    expect((await h.call('GET', `/v1/retrospective_processes/${id}`, { principal: team })).body.data.attributes.name).toBe('Ops');
    const updated = await h.call('PUT', `/v1/retrospective_processes/${id}`, {
      body: body({ description: null, retrospective_process_matching_criteria: { group_ids: [OPS] } }),
      principal: team,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({
      name: 'Ops',
      description: null,
      retrospective_process_matching_criteria: { group_ids: [OPS] },
    });
    const cleared = await h.call('PUT', `/v1/retrospective_processes/${id}`, {
      body: body({ retrospective_process_matching_criteria: null }),
      principal: team,
    });
    // The specification has the criteria an object: none are an empty list, never null.
    expect(cleared.body.data.attributes.retrospective_process_matching_criteria).toEqual({ severity_ids: [] });
    const reread = await h.call('GET', `/v1/retrospective_processes/${id}`, { principal: team });
    expect(reread.body.data.attributes.retrospective_process_matching_criteria).toEqual({ severity_ids: [] });
    expect((await h.call('PATCH', `/v1/retrospective_processes/${id}`, { body: body({ name: 'x' }), principal: team })).status).toBe(404);
    const deleted = await h.call('DELETE', `/v1/retrospective_processes/${id}`, { principal: team });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, attributes: { name: 'Ops' } });
    expect((await h.call('GET', `/v1/retrospective_processes/${id}`, { principal: team })).status).toBe(404);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 4);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'retrospective_process.created',
      'retrospective_process.updated',
      'retrospective_process.updated',
      'retrospective_process.deleted',
    ]);
  });

  it('refuses to delete the default process or give it criteria, and lets it be renamed', async () => {
    const team = freshTeam();
    await create({ name: 'First', copy_from: 'starter_template' }, team);
    const defaultId = (await list(team, '?filter[is_default]=true')).body.data[0].id;
    const deleting = await h.call('DELETE', `/v1/retrospective_processes/${defaultId}`, { principal: team });
    expect(deleting.status).toBe(422);
    expect(deleting.body.errors[0].code).toBe('default_process');
    expect(await count({ id: defaultId })).toBe(1);
    const criteria = await h.call('PUT', `/v1/retrospective_processes/${defaultId}`, {
      body: body({ retrospective_process_matching_criteria: { severity_ids: ['sev1'] } }),
      principal: team,
    });
    expect(criteria.status).toBe(422);
    expect(pointers(criteria)).toContain(CRITERIA);
    const renamed = await h.call('PUT', `/v1/retrospective_processes/${defaultId}`, { body: body({ name: 'Fallback' }), principal: team });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.attributes).toMatchObject({
      name: 'Fallback',
      is_default: true,
      retrospective_process_matching_criteria: { severity_ids: [] },
    });
    const read = await h.call('GET', `/v1/retrospective_processes/${defaultId}`, { principal: team });
    expect(read.status).toBe(200);
    // What a read answers can be sent back: empty criteria (or null) are none, not a 500.
    for (const none of [read.body.data.attributes.retrospective_process_matching_criteria, null, { group_ids: [] }]) {
      const again = await h.call('PUT', `/v1/retrospective_processes/${defaultId}`, {
        body: body({ name: 'Fallback', retrospective_process_matching_criteria: none }),
        principal: team,
      });
      expect([again.status, again.body.data?.attributes.retrospective_process_matching_criteria]).toEqual([200, { severity_ids: [] }]);
    }
  });

  it.each([
    ['a missing name', { copy_from: 'starter_template' }, '/data/attributes/name'],
    ['a missing copy_from', { name: 'x' }, '/data/attributes/copy_from'],
    ['a copy_from naming no process', { name: 'x', copy_from: randomUUID() }, '/data/attributes/copy_from'],
    ['a copy_from that is no id', { name: 'x', copy_from: 'the-usual' }, '/data/attributes/copy_from'],
    [
      'two kinds of criteria',
      { name: 'x', copy_from: 'starter_template', retrospective_process_matching_criteria: { severity_ids: [], group_ids: [] } },
      CRITERIA,
    ],
    [
      'an unknown kind of criteria',
      { name: 'x', copy_from: 'starter_template', retrospective_process_matching_criteria: { service_ids: ['a'] } },
      CRITERIA,
    ],
    ['is_default (read-only)', { name: 'x', copy_from: 'starter_template', is_default: true }, '/data/attributes/is_default'],
  ])('refuses %s with a 422 and writes nothing, not even the default', async (_name, attributes, pointer) => {
    const team = freshTeam();
    const res = await create(attributes, team);
    expect(res.status).toBe(422);
    expect(pointers(res)).toContain(pointer);
    expect(await count({ team_id: team.team_id })).toBe(0);
  });

  it('refuses a duplicate name with 409', async () => {
    const team = freshTeam();
    expect((await create({ name: 'Twice', copy_from: 'starter_template' }, team)).status).toBe(201);
    const dup = await create({ name: 'twice', copy_from: 'starter_template' }, team);
    expect(dup.status).toBe(409);
    expect(dup.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
  });

  it("answers 404 for another team's process, and refuses to copy from it", async () => {
    const theirs = freshTeam();
    const { id } = (await create({ name: 'Theirs', copy_from: 'starter_template' }, theirs)).body.data;
    const me = freshTeam();
    expect((await h.call('GET', `/v1/retrospective_processes/${id}`, { principal: me })).status).toBe(404);
    expect((await h.call('PUT', `/v1/retrospective_processes/${id}`, { body: body({ name: 'Mine' }), principal: me })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/retrospective_processes/${id}`, { principal: me })).status).toBe(404);
    const copied = await create({ name: 'Copy', copy_from: id }, me);
    expect(copied.status).toBe(422);
    expect(pointers(copied)).toEqual(['/data/attributes/copy_from']);
    expect(JSON.stringify(copied.body)).not.toContain('Theirs');
    expect((await h.call('GET', '/v1/retrospective_processes/not-a-uuid', { principal: me })).status).toBe(404);
  });

  it("accepts the reference's include names, answering nothing included (none is served here), and refuses others", async () => {
    const team = freshTeam();
    const { id } = (await create({ name: 'Included', copy_from: 'starter_template' }, team)).body.data;
    const res = await h.call('GET', `/v1/retrospective_processes/${id}?include=severities,groups`, { principal: team });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('included');
    expect((await h.call('GET', '/v1/retrospective_processes?include=owners', { principal: team })).status).toBe(400);
  });
});
