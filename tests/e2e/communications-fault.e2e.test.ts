import { api, type RunningSystem, startSystem } from '../support/system.js';

// The built processes as deployed: communications is killed with SIGKILL while the rest
// of the API keeps answering, then started again; its previews run in the built worker.
let system: RunningSystem;
let token: string;

beforeAll(async () => {
  system = await startSystem();
  const boot = await system.cli('bootstrap', '--team-name', 'Comms fault', '--email', 'admin@comms-fault.test');
  const key = await system.cli(
    'api-keys',
    'create',
    '--team-id',
    String(boot.team.id),
    '--name',
    'raised',
    '--role',
    'admin',
    '--rate-limit-read',
    '10000',
    '--rate-limit-write',
    '10000',
  );
  token = key.api_key?.token ?? key.token;
}, 120_000);

afterAll(async () => system?.stop());

const call = (method: string, path: string, body?: unknown) => api(system.gatewayUrl, method, path, { token, body });

describe('communications killed and started again', () => {
  it('answers its routes with a JSON:API 503 while down, the rest of the API answering, and renders again once back', async () => {
    const type = await call('POST', '/v1/communications/types', {
      data: { type: 'communications_types', attributes: { name: 'Status', color: null } },
    });
    expect(type.status).toBe(201);
    const stage = (
      await call('POST', '/v1/communications/stages', { data: { type: 'communications_stages', attributes: { name: 'Investigating' } } })
    ).body.data.id;
    const template = await call('POST', '/v1/communications/templates', {
      data: {
        type: 'communications_templates',
        attributes: {
          name: 'Outage',
          communication_type_id: type.body.data.id,
          communication_template_stages_attributes: [
            { communication_stage_id: stage, sms_content: '{{ incident.title | upcase }} is down' },
          ],
        },
      },
    });
    expect(template.status).toBe(201);
    const preview = () =>
      call('POST', `/v1/communications/templates/${template.body.data.id}/preview`, {
        data: { type: 'communications_template_previews', attributes: { variables: { incident: { title: 'api' } } } },
      });
    // The compiled worker (dist/.../render-worker.js) renders.
    expect((await preview()).body.data.attributes.communication_template_stages[0].sms_content).toBe('API is down');

    await system.kill('communications');
    for (const path of ['/v1/communications/types', `/v1/communications/templates/${template.body.data.id}`]) {
      const down = await call('GET', path);
      expect([path, down.status, down.headers.get('content-type')]).toEqual([
        path,
        503,
        expect.stringContaining('application/vnd.api+json'),
      ]);
      expect(down.body.errors[0]).toMatchObject({ status: '503' });
    }
    expect((await preview()).status).toBe(503);
    // The rest of the API answers meanwhile.
    expect(
      (await call('POST', '/v1/environments', { data: { type: 'environments', attributes: { name: 'While comms is down' } } })).status,
    ).toBe(201);
    expect((await call('GET', '/v1/environments')).status).toBe(200);

    await system.restart('communications');
    expect((await call('GET', '/v1/communications/types')).body.data.map((t: { id: string }) => t.id)).toEqual([type.body.data.id]);
    expect((await preview()).body.data.attributes.communication_template_stages[0].sms_content).toBe('API is down');
  }, 60_000);
});
