import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;

const doc = (attributes: Record<string, unknown>) => ({ data: { type: 'retrospective_processes', attributes } });
const team = { team_id: 811 };

beforeAll(async () => {
  h = await startIncidentConfig();
});

afterAll(async () => {
  await h?.close();
});

describe('retrospective criteria kept from before severities and incident types were checked', () => {
  it('pass when a PUT sends them back as read, whatever their case, while a new unknown id is still a 422', async () => {
    const created = await h.call('POST', '/v1/retrospective_processes', {
      body: doc({ name: 'Legacy', copy_from: 'starter_template' }),
      principal: team,
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    // As an earlier version stored them: any string, as given.
    const legacy = { severity_ids: ['SEV0', 'B1D4E6F0-0000-4000-8000-00000000000A'] };
    await h.db.knex('retrospective_processes').where({ id }).update({ retrospective_process_matching_criteria: legacy });
    const read = (await h.call('GET', `/v1/retrospective_processes/${id}`, { principal: team })).body.data.attributes;
    expect(read.retrospective_process_matching_criteria).toEqual(legacy);

    const put = (criteria: unknown) =>
      h.call('PUT', `/v1/retrospective_processes/${id}`, {
        body: doc({ description: 'Kept', retrospective_process_matching_criteria: criteria }),
        principal: team,
      });
    const sentBack = await put(read.retrospective_process_matching_criteria);
    expect(sentBack.status).toBe(200);
    const added = await put({ severity_ids: [...legacy.severity_ids, 'SEV9'] });
    expect([added.status, added.body.errors?.map((e: { source: { pointer: string } }) => e.source.pointer)]).toEqual([
      422,
      ['/data/attributes/retrospective_process_matching_criteria/severity_ids/2'],
    ]);
  });
});
