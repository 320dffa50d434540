import { randomUUID } from 'node:crypto';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

type Res = { status: number; body: any };
type Principal = Record<string, unknown>;
const doc = (attributes: Record<string, unknown>, id?: string) => ({ data: { type: 'severities', ...(id ? { id } : {}), attributes } });
const create = (attributes: Record<string, unknown>, principal: Principal) =>
  h.call('POST', '/v1/severities', { body: doc(attributes), principal });
const list = (principal: Principal, query = '') => h.call('GET', `/v1/severities${query}`, { principal });
const names = (res: Res) => res.body.data.map((s: { attributes: { name: string } }) => s.attributes.name);
const pointers = (res: Res) => res.body.errors.map((e: { source?: { pointer: string } }) => e.source?.pointer);
const seededRows = async (teamId: number) => Number((await h.db.knex('severity_seeds').where({ team_id: teamId }).count({ n: '*' }))[0].n);
let teams = 300;
/** A team of its own for each test: the starting severities are per team. */
const freshTeam = () => ({ team_id: ++teams });

beforeAll(async () => {
  h = await startIncidentConfig({ eventPattern: 'severity.*' });
});

afterAll(async () => {
  await h?.close();
});

describe('severities', () => {
  it('starts a team with SEV0 to SEV3, announced once each', async () => {
    const team = freshTeam();
    const res = await list(team);
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((s: { attributes: Record<string, unknown> }) => [
        s.attributes.name,
        s.attributes.slug,
        s.attributes.severity,
        s.attributes.position,
      ]),
    ).toEqual([
      ['SEV0', 'sev0', 'critical', 0],
      ['SEV1', 'sev1', 'high', 1],
      ['SEV2', 'sev2', 'medium', 2],
      ['SEV3', 'sev3', 'low', 3],
    ]);
    expect(res.body.data[0].attributes).toEqual({
      name: 'SEV0',
      slug: 'sev0',
      description: expect.any(String),
      severity: 'critical',
      color: expect.stringMatching(/^#[0-9A-F]{6}$/),
      position: 0,
      notify_emails: [],
      chat_channels: [],
      chat_aliases: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const ids = res.body.data.map((s: { id: string }) => s.id);
    await h.events!.waitFor((es) => ids.every((id: string) => es.some((e) => (e.body.data as { id: string }).id === id)));
    const announced = h.events!.events.filter((e) => e.routingKey === 'severity.created' && e.body.team_id === team.team_id);
    expect(announced).toHaveLength(4);
  });

  it("seeds once when a team's first requests race, and never again after all are deleted", async () => {
    const team = freshTeam();
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => list(team)),
      ...Array.from({ length: 4 }, (_, i) => create({ name: `Racer ${i}` }, team)),
      h.call('GET', '/v1/severities/sev2', { principal: team }),
    ]);
    expect(results.map((r) => r.status)).toEqual([...Array(6).fill(200), ...Array(4).fill(201), 200]);
    expect(await seededRows(team.team_id)).toBe(1);
    const all = await list(team, '?page[size]=50');
    expect(names(all).filter((n: string) => n.startsWith('SEV'))).toEqual(['SEV0', 'SEV1', 'SEV2', 'SEV3']);
    expect(all.body.data).toHaveLength(8);

    for (const s of all.body.data) expect((await h.call('DELETE', `/v1/severities/${s.id}`, { principal: team })).status).toBe(200);
    expect((await list(team)).body.data).toEqual([]);
    expect((await create({ name: 'Only' }, team)).status).toBe(201);
    expect(names(await list(team))).toEqual(['Only']);
  });

  it('creates, reads by id or slug, updates and deletes, with defaults and the chat names', async () => {
    const team = freshTeam();
    const created = await create(
      {
        name: 'Major Outage',
        severity: 'high',
        color: '#FF0000',
        notify_emails: ['oncall@example.com'],
        chat_channels: [{ id: 'C1', name: 'ops' }],
      },
      team,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({
      name: 'Major Outage',
      slug: 'major-outage',
      severity: 'high',
      position: 4,
      description: null,
      chat_channels: [{ id: 'C1', name: 'ops' }],
      chat_aliases: [],
    });
    const id = created.body.data.id;
    expect((await h.call('GET', '/v1/severities/major-outage', { principal: team })).body.data.id).toBe(id);
    const updated = await h.call('PUT', `/v1/severities/${id}`, {
      body: doc({ description: 'Bad', severity: 'critical', chat_channels: null }, id),
      principal: team,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ description: 'Bad', severity: 'critical', chat_channels: [] });
    expect((await create({ name: 'Plain' }, team)).body.data.attributes.severity).toBe('medium');
    expect((await list(team, '?filter[severity]=critical')).body.data.map((s: { id: string }) => s.id).sort()).toEqual(
      [id, (await h.call('GET', '/v1/severities/sev0', { principal: team })).body.data.id].sort(),
    );
    expect(names(await list(team, '?sort=-position&page[size]=2'))).toEqual(['Plain', 'Major Outage']);
    expect((await h.call('DELETE', `/v1/severities/${id}`, { principal: team })).status).toBe(200);
    expect((await h.call('GET', `/v1/severities/${id}`, { principal: team })).status).toBe(404);
  });

  it('refuses bad attributes and duplicate names with pointers', async () => {
    const team = freshTeam();
    const bad = await create({ name: 'X', severity: 'urgent', color: 'red', notify_emails: ['nope'], slack_channels: [] }, team);
    expect(bad.status).toBe(422);
    expect(pointers(bad).sort()).toEqual(
      ['/data/attributes/color', '/data/attributes/notify_emails/0', '/data/attributes/severity', '/data/attributes/slack_channels'].sort(),
    );
    expect(pointers(await create({ severity: 'low' }, team))).toEqual(['/data/attributes/name']);
    const taken = await create({ name: 'sev1' }, team);
    expect([taken.status, pointers(taken)]).toEqual([409, ['/data/attributes/name']]);
  });

  it('never leaves an incident naming a deleted severity when the delete and the naming race', async () => {
    const team = freshTeam();
    for (let round = 0; round < 5; round++) {
      const id = (await create({ name: `Racing ${round}` }, team)).body.data.id;
      const [deleted, named] = await Promise.all([
        h.call('DELETE', `/v1/severities/${id}`, { principal: team }),
        h.call('POST', '/v1/incidents', {
          body: { data: { type: 'incidents', attributes: { title: `Race ${round}`, severity_id: id } } },
          principal: team,
        }),
      ]);
      // One of the two wins; the other is refused with a 422, never a 500 or both.
      expect([
        [200, 422],
        [422, 201],
      ]).toContainEqual([deleted.status, named.status]);
      const left = await h.db.knex('incidents').where({ team_id: team.team_id, severity_id: id }).count({ n: '*' });
      expect(Number(left[0].n)).toBe(named.status === 201 ? 1 : 0);
    }
  });

  it("answers 404 for another team's severity", async () => {
    const mine = freshTeam();
    const theirs = freshTeam();
    const id = (await create({ name: 'Private' }, theirs)).body.data.id;
    for (const [method, body] of [['GET'], ['PUT', doc({ name: 'Mine' })], ['DELETE']] as const) {
      expect((await h.call(method, `/v1/severities/${id}`, { principal: mine, body })).status).toBe(404);
    }
    expect((await h.call('GET', `/v1/severities/${randomUUID()}`, { principal: mine })).status).toBe(404);
  });
});
