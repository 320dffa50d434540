import { startCommunications, type CallOptions, type CommunicationsHarness } from './support/communications-harness.js';

let h: CommunicationsHarness;
const call = (method: string, path: string, options?: CallOptions) => h.call(method, path, options);
const create = (kind: string, attributes: Record<string, unknown>) =>
  call('POST', `/v1/communications/${kind}`, { body: { data: { type: `communications_${kind}`, attributes } } });
const preview = (id: string, variables?: unknown, principal?: Record<string, unknown>) =>
  call('POST', `/v1/communications/templates/${id}/preview`, {
    principal,
    body: { data: { type: 'communications_template_previews', attributes: variables === undefined ? {} : { variables } } },
  });
const STAGES = 'communication_template_stages_attributes';

let typeId: string;
let stageA: string;
let stageB: string;

beforeAll(async () => {
  h = await startCommunications();
  typeId = (await create('types', { name: 'Status', color: null })).body.data.id;
  stageA = (await create('stages', { name: 'Investigating' })).body.data.id;
  stageB = (await create('stages', { name: 'Resolved' })).body.data.id;
});
afterAll(async () => h?.close());

const template = async (name: string, stages: Record<string, unknown>[]) =>
  (await create('templates', { name, communication_type_id: typeId, [STAGES]: stages })).body.data.id as string;

describe('template previews', () => {
  it('renders every stage with the variables, nulls staying null, with each SMS\'s segment count', async () => {
    const id = await template('Outage', [
      {
        communication_stage_id: stageA,
        email_subject: '[{{ incident.severity | upcase }}] {{ incident.title }}',
        email_body: 'See {{ incident.url }}{% for s in incident.services %} {{ s }}{% endfor %}',
        chat_content: ':fire: {{ incident.title | default: "Untitled" }}',
        sms_content: '{{ incident.title }} – {{ incident.missing }}',
      },
      { communication_stage_id: stageB, sms_content: '{{ incident.title }} resolved €' },
    ]);
    const vars = { incident: { title: 'DB down', severity: 'sev1', url: 'https://x.example/1', services: ['api', 'web'] } };
    const res = await preview(id, vars, { capabilities: ['read'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, type: 'communications_template_previews', attributes: { communication_template_id: id } });
    const [a, b] = res.body.data.attributes.communication_template_stages;
    expect(a).toMatchObject({
      communication_stage: { id: stageA, name: 'Investigating' },
      email_subject: '[SEV1] DB down', email_body: 'See https://x.example/1 api web', chat_content: ':fire: DB down',
      sms_content: 'DB down – ', sms_segments: { encoding: 'UCS-2', units: 10, segments: 1 },
    });
    expect(b).toMatchObject({
      communication_stage: { id: stageB, name: 'Resolved' }, email_subject: null, email_body: null, chat_content: null,
      sms_content: 'DB down resolved €', sms_segments: { encoding: 'GSM-7', units: 19, segments: 1 },
    });
    // Without variables the placeholders render empty.
    expect((await preview(id)).body.data.attributes.communication_template_stages[1].sms_content).toBe(' resolved €');
  });

  it('reads own properties only, never prototypes', async () => {
    const id = await template('Sandbox', [{ communication_stage_id: stageA, email_body: '{{ incident.constructor }}|{{ incident.__proto__ }}|{{ incident.title.length }}|{{ incident.size }}' }]);
    const res = await preview(id, { incident: { title: 'abc' } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.communication_template_stages[0].email_body).toBe('||3|1');
  });

  it('stops loops and output that grow past the bounds with a 422 naming the stage and field', async () => {
    const loop = await template('Loop', [{ communication_stage_id: stageB, email_body: '{% for i in (1..100000000) %}x{% endfor %}' }]);
    const started = Date.now();
    const res = await preview(loop, {});
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 'render_failed', detail: expect.stringMatching(/Stage "Resolved", email_body/) });
    const doubling = await template('Doubling', [{
      communication_stage_id: stageA,
      chat_content: '{% assign a = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign a = a | append: a %}{% endfor %}{{ a }}',
    }]);
    expect((await preview(doubling, {})).status).toBe(422);
    const nested = await template('Nested', [{ communication_stage_id: stageA, sms_content: '{% for i in (1..900) %}{% for j in (1..900) %}{% endfor %}{% endfor %}' }]);
    const t2 = Date.now();
    expect((await preview(nested, {})).status).toBe(422);
    expect(Date.now() - t2).toBeLessThan(3000);
  });

  it('refuses bad bodies with 4xx and unknown templates with 404', async () => {
    const id = await template('Body', [{ communication_stage_id: stageA, sms_content: 'x' }]);
    expect((await preview(id, 'not an object')).status).toBe(422);
    expect((await call('POST', `/v1/communications/templates/${id}/preview`, { body: { data: { type: 'wrong', attributes: {} } } })).status).toBe(422);
    expect((await call('POST', `/v1/communications/templates/${id}/preview`, { body: { variables: {} } })).status).toBe(422);
    expect((await preview(id, { big: 'x'.repeat(70_000) })).status).toBe(422);
    // Nested far deeper than any stack would follow: refused, not a 500.
    for (const levels of [17, 5_000, 100_000]) {
      const deep = `{"data":{"type":"communications_template_previews","attributes":{"variables":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}}}`;
      const res = await call('POST', `/v1/communications/templates/${id}/preview`, { body: deep });
      expect([levels, res.status, res.body.errors[0].detail]).toEqual([levels, 422, expect.stringMatching(/at most 16 levels/)]);
    }
    expect((await preview(id, { a: { b: { c: { d: 'fine' } } } })).status).toBe(200);
    expect((await preview('00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    expect((await call('POST', `/v1/communications/templates/${id}/preview`, { body: '{', headers: { 'content-type': 'application/vnd.api+json' } })).status).toBe(400);
    expect((await preview(id, {}, { capabilities: [] })).status).toBe(403);
  });
});
