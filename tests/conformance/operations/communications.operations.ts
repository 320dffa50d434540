import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes: Record<string, unknown>, id?: string) => ({ data: { type, ...(id ? { id } : {}), attributes } });
const type = (attributes: Record<string, unknown>, id?: string) => doc('communications_types', attributes, id);
const stage = (attributes: Record<string, unknown>, id?: string) => doc('communications_stages', attributes, id);
const template = (attributes: Record<string, unknown>, id?: string) => doc('communications_templates', attributes, id);
const previewOf = (variables: Record<string, unknown>) => doc('communications_template_previews', { variables });
const unique = () => randomUUID().slice(0, 8);
const STAGES = 'communication_template_stages_attributes';

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<{ id: string; attributes: any }> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
const newType = async (ctx: ConformanceContext) =>
  (await created(ctx, '/v1/communications/types', type({ name: `Type ${unique()}`, color: '#FF0000' }))).id;
const newStage = async (ctx: ConformanceContext) =>
  (await created(ctx, '/v1/communications/stages', stage({ name: `Stage ${unique()}` }))).id;

/** A fresh template of a fresh type with content for one fresh stage; its id and that stage row's id. */
async function newTemplate(ctx: ConformanceContext): Promise<{ id: string; stageRowId: string }> {
  const body = template({
    name: `Template ${unique()}`,
    communication_type_id: await newType(ctx),
    [STAGES]: [
      {
        communication_stage_id: await newStage(ctx),
        email_subject: '{{ incident.title }}',
        email_body: 'Body',
        chat_content: 'Chat',
        sms_content: 'SMS',
      },
    ],
  });
  const data = await created(ctx, '/v1/communications/templates', body);
  return { id: data.id, stageRowId: data.attributes.communication_template_stages[0].data.id };
}

// The reference declares no body for these deletes; they answer the deleted record.
const deleted = (component: string) => ({
  component,
  cite: 'docs/api-contract.md §2 (Status codes of success): delete answers the deleted record',
});

/** Communications types, stages and templates (docs/communications.md). */
export const communicationsOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/communications/types',
    request: () => ({ body: type({ name: `Type ${unique()}`, color: '#00FF00', description: 'Status', position: 3 }) }),
    status: 201,
    schema: { reference: 'createCommunicationsType', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/communications/types',
    variant: 'color missing',
    request: () => ({ body: type({ name: 'No colour' }) }),
    status: 422,
    schema: { reference: 'createCommunicationsType', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/communications/types',
    variant: 'no credential',
    request: () => ({ body: type({ name: 'Nobody', color: null }), token: null }),
    status: 401,
    schema: errorDocument,
  },
  { method: 'GET', path: '/v1/communications/types', status: 200, schema: { reference: 'listCommunicationsTypes', status: 200 } },
  {
    method: 'GET',
    path: '/v1/communications/types',
    variant: 'filters, sort and a page',
    request: () => ({ query: 'filter[search]=type&filter[created_at][gte]=2000-01-01T00:00:00Z&sort=-name&page[size]=1' }),
    status: 200,
    schema: { reference: 'listCommunicationsTypes', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/communications/types/{id}',
    request: async (ctx) => ({ params: { id: await newType(ctx) } }),
    status: 200,
    schema: { reference: 'getCommunicationsType', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/types/{id}',
    request: async (ctx) => {
      const id = await newType(ctx);
      return { params: { id }, body: type({ slug: `renamed-${unique()}`, color: null, position: null }, id) };
    },
    status: 200,
    schema: { reference: 'updateCommunicationsType', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/types/{id}',
    variant: 'unknown attribute',
    request: async (ctx) => ({ params: { id: await newType(ctx) }, body: type({ slack_content: 'x' }) }),
    status: 422,
    schema: { reference: 'updateCommunicationsType', status: 422 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/types/{id}',
    variant: 'a slug that reads as a UUID',
    request: async (ctx) => ({ params: { id: await newType(ctx) }, body: type({ slug: randomUUID() }) }),
    status: 422,
    schema: { reference: 'updateCommunicationsType', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/communications/types/{id}',
    request: async (ctx) => ({ params: { id: await newType(ctx) } }),
    status: 200,
    schema: deleted('communications_type_response'),
  },
  {
    method: 'DELETE',
    path: '/v1/communications/types/{id}',
    variant: 'in use by a template (docs/communications.md)',
    request: async (ctx) => {
      const id = await newType(ctx);
      await created(ctx, '/v1/communications/templates', template({ name: `Holder ${unique()}`, communication_type_id: id }));
      return { params: { id } };
    },
    status: 422,
    schema: errorDocument,
  },
  ...unknownIdRows('/v1/communications/types/{id}', [
    ['GET', 'getCommunicationsType'],
    ['DELETE', 'deleteCommunicationsType'],
  ]),
  {
    // The reference declares no 404 for its PATCH; the error document is the contract's.
    method: 'PATCH',
    path: '/v1/communications/types/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: type({ name: 'x' }) }),
    status: 404,
    schema: errorDocument,
  },

  {
    method: 'POST',
    path: '/v1/communications/stages',
    request: () => ({ body: stage({ name: `Stage ${unique()}`, description: 'We are looking', position: 1 }) }),
    status: 201,
    schema: { reference: 'createCommunicationsStage', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/communications/stages',
    variant: 'name missing',
    request: () => ({ body: stage({ description: 'x' }) }),
    status: 422,
    schema: { reference: 'createCommunicationsStage', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/communications/stages',
    variant: 'no credential',
    request: () => ({ body: stage({ name: 'Nobody' }), token: null }),
    status: 401,
    schema: { reference: 'createCommunicationsStage', status: 401 },
  },
  { method: 'GET', path: '/v1/communications/stages', status: 200, schema: { reference: 'listCommunicationsStages', status: 200 } },
  {
    method: 'GET',
    path: '/v1/communications/stages',
    variant: 'filters and a page',
    request: () => ({ query: 'filter[name]=x&filter[slug]=x&filter[created_at][lt]=2999-01-01T00:00:00Z&page[number]=1' }),
    status: 200,
    schema: { reference: 'listCommunicationsStages', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/communications/stages/{id}',
    request: async (ctx) => ({ params: { id: await newStage(ctx) } }),
    status: 200,
    schema: { reference: 'getCommunicationsStage', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/stages/{id}',
    request: async (ctx) => ({ params: { id: await newStage(ctx) }, body: stage({ name: `Renamed ${unique()}`, description: null }) }),
    status: 200,
    schema: { reference: 'updateCommunicationsStage', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/stages/{id}',
    variant: 'empty name',
    request: async (ctx) => ({ params: { id: await newStage(ctx) }, body: stage({ name: '' }) }),
    status: 422,
    schema: { reference: 'updateCommunicationsStage', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/communications/stages/{id}',
    request: async (ctx) => ({ params: { id: await newStage(ctx) } }),
    status: 200,
    schema: deleted('communications_stage_response'),
  },
  ...unknownIdRows('/v1/communications/stages/{id}', [
    ['GET', 'getCommunicationsStage'],
    ['DELETE', 'deleteCommunicationsStage'],
  ]),
  {
    // The reference declares no 404 for its PATCH; the error document is the contract's.
    method: 'PATCH',
    path: '/v1/communications/stages/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: stage({ name: 'x' }) }),
    status: 404,
    schema: errorDocument,
  },

  {
    method: 'POST',
    path: '/v1/communications/templates',
    request: async (ctx) => ({
      body: template({
        name: `Template ${unique()}`,
        description: 'Customer update',
        position: 2,
        communication_type_id: await newType(ctx),
        [STAGES]: [
          {
            communication_stage_id: await newStage(ctx),
            email_subject: '[{{ incident.severity }}] {{ incident.title }}',
            email_body: 'See {{ incident.url }}',
            chat_content: ':fire:',
            sms_content: null,
          },
          { communication_stage_id: await newStage(ctx), sms_content: 'Resolved' },
        ],
      }),
    }),
    status: 201,
    schema: { reference: 'createCommunicationsTemplate', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/communications/templates',
    variant: 'Liquid that does not parse',
    request: async (ctx) => ({
      body: template({
        name: 'Broken',
        communication_type_id: await newType(ctx),
        [STAGES]: [{ communication_stage_id: await newStage(ctx), email_body: '{% if %}' }],
      }),
    }),
    status: 422,
    schema: { reference: 'createCommunicationsTemplate', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/communications/templates',
    variant: 'no credential',
    request: (ctx) => ({ body: template({ name: 'Nobody', communication_type_id: ctx.unknownId }), token: null }),
    status: 401,
    schema: errorDocument,
  },
  { method: 'GET', path: '/v1/communications/templates', status: 200, schema: { reference: 'listCommunicationsTemplates', status: 200 } },
  {
    method: 'GET',
    path: '/v1/communications/templates',
    variant: 'filter[communication_type_id], sort and a page',
    request: async (ctx) => {
      const { id } = await newTemplate(ctx);
      const typeId = (await ctx.call('GET', `/v1/communications/templates/${id}`)).body.data.attributes.communication_type_id;
      return { query: `filter[communication_type_id]=${typeId}&filter[search]=template&sort=position&page[size]=5` };
    },
    status: 200,
    schema: { reference: 'listCommunicationsTemplates', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/communications/templates/{id}',
    request: async (ctx) => ({ params: { id: (await newTemplate(ctx)).id } }),
    status: 200,
    schema: { reference: 'getCommunicationsTemplate', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/templates/{id}',
    variant: 'a stage changed by id and one added',
    request: async (ctx) => {
      const { id, stageRowId } = await newTemplate(ctx);
      const body = template(
        {
          name: `Renamed ${unique()}`,
          [STAGES]: [
            { id: stageRowId, chat_content: 'Changed' },
            { communication_stage_id: await newStage(ctx), sms_content: 'Added' },
          ],
        },
        id,
      );
      return { params: { id }, body };
    },
    status: 200,
    schema: { reference: 'updateCommunicationsTemplate', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/templates/{id}',
    variant: "a valid change beside another template's stage",
    request: async (ctx) => {
      const { id, stageRowId } = await newTemplate(ctx);
      const other = await newTemplate(ctx);
      return {
        params: { id },
        body: template({
          [STAGES]: [
            { id: stageRowId, chat_content: 'Changed' },
            { id: other.stageRowId, chat_content: 'No' },
          ],
        }),
      };
    },
    status: 422,
    schema: { reference: 'updateCommunicationsTemplate', status: 422 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/templates/{id}',
    variant: "an entry with id: null adds a stage (the reference's nullable id)",
    request: async (ctx) => {
      const { id } = await newTemplate(ctx);
      return {
        params: { id },
        body: template({ [STAGES]: [{ id: null, communication_stage_id: await newStage(ctx), sms_content: 'Added' }] }, id),
      };
    },
    status: 200,
    schema: { reference: 'updateCommunicationsTemplate', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/communications/templates/{id}',
    variant: 'one stage entry named twice',
    request: async (ctx) => {
      const { id, stageRowId } = await newTemplate(ctx);
      return {
        params: { id },
        body: template(
          {
            [STAGES]: [
              { id: stageRowId, _destroy: true },
              { id: stageRowId, sms_content: 'Changed' },
            ],
          },
          id,
        ),
      };
    },
    status: 422,
    schema: { reference: 'updateCommunicationsTemplate', status: 422 },
  },
  {
    method: 'DELETE',
    path: '/v1/communications/templates/{id}',
    request: async (ctx) => ({ params: { id: (await newTemplate(ctx)).id } }),
    status: 200,
    schema: deleted('communications_template_response'),
  },
  ...unknownIdRows('/v1/communications/templates/{id}', [
    ['GET', 'getCommunicationsTemplate'],
    ['DELETE', 'deleteCommunicationsTemplate'],
  ]),
  {
    // The reference declares no 404 for its PATCH; the error document is the contract's.
    method: 'PATCH',
    path: '/v1/communications/templates/{id}',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: template({ name: 'x' }) }),
    status: 404,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/communications/templates/{id}/preview',
    request: async (ctx) => ({ params: { id: (await newTemplate(ctx)).id }, body: previewOf({ incident: { title: 'Database down' } }) }),
    status: 200,
    schema: { spec: 'single', type: 'communications_template_previews', cite: 'issue 10, docs/communications.md (beyond the reference)' },
  },
  {
    method: 'POST',
    path: '/v1/communications/templates/{id}/preview',
    variant: 'variables not an object',
    request: async (ctx) => ({
      params: { id: (await newTemplate(ctx)).id },
      body: doc('communications_template_previews', { variables: [1] }),
    }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/communications/templates/{id}/preview',
    variant: 'a capture past the output bound',
    request: async (ctx) => {
      const body = template({
        name: `Capture ${unique()}`,
        communication_type_id: await newType(ctx),
        [STAGES]: [
          {
            communication_stage_id: await newStage(ctx),
            email_body: '{% capture s %}{% for i in (1..300) %}{{ pad }}{% endfor %}{% endcapture %}{{ s | size }}',
          },
        ],
      });
      return { params: { id: (await created(ctx, '/v1/communications/templates', body)).id }, body: previewOf({ pad: 'ę'.repeat(1_000) }) };
    },
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/communications/templates/{id}/preview',
    variant: 'unknown id',
    request: (ctx) => ({ params: { id: ctx.unknownId }, body: previewOf({}) }),
    status: 404,
    schema: errorDocument,
  },
];
