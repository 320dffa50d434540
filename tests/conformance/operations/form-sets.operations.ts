import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const set = (attributes: Record<string, unknown>) => ({ data: { type: 'form_sets', attributes } });
const condition = (attributes: Record<string, unknown>) => ({ data: { type: 'form_set_conditions', attributes } });
const equal = { form_field_id: 'severity', comparison: 'equal', values: ['sev1'] };

/** A fresh form set; its id. */
async function formSet(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/form_sets', {
    body: set({ name: `Set ${randomUUID().slice(0, 8)}`, forms: ['web_new_incident_form'] }),
  });
  if (res.status !== 201) throw new Error(`fixture: form set answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A fresh condition of a fresh form set; its id. */
async function formSetCondition(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', `/v1/form_sets/${await formSet(ctx)}/conditions`, { body: condition(equal) });
  if (res.status !== 201) throw new Error(`fixture: form set condition answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Form sets and their conditions (docs/decisions.md, Resources). */
export const formSetOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/form_sets',
    request: () => ({ body: set({ name: `Set ${randomUUID().slice(0, 8)}`, forms: ['web_new_incident_form', 'custom-intake'] }) }),
    status: 201,
    schema: { reference: 'createFormSet', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/form_sets',
    variant: 'forms missing',
    request: () => ({ body: set({ name: 'No forms' }) }),
    status: 422,
    schema: { reference: 'createFormSet', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/form_sets',
    variant: 'no credential',
    request: () => ({ body: set({ name: 'Nobody', forms: [] }), token: null }),
    status: 401,
    schema: { reference: 'createFormSet', status: 401 },
  },
  { method: 'GET', path: '/v1/form_sets', status: 200, schema: { reference: 'listFormSets', status: 200 } },
  {
    method: 'GET',
    path: '/v1/form_sets',
    variant: 'filters and a page',
    request: () => ({ query: 'filter[is_default]=false&filter[created_at][lte]=2999-01-01T00:00:00Z&page[size]=1' }),
    status: 200,
    schema: { reference: 'listFormSets', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/form_sets/{id}',
    request: async (ctx) => ({ params: { id: await formSet(ctx) } }),
    status: 200,
    schema: { reference: 'getFormSet', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/form_sets/{id}',
    request: async (ctx) => ({ params: { id: await formSet(ctx) }, body: set({ forms: ['slack_new_incident_form'] }) }),
    status: 200,
    schema: { reference: 'updateFormSet', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/form_sets/{id}',
    request: async (ctx) => ({ params: { id: await formSet(ctx) } }),
    status: 200,
    schema: { reference: 'deleteFormSet', status: 200 },
  },
  ...unknownIdRows('/v1/form_sets/{id}', [
    ['GET', 'getFormSet'],
    ['PUT', 'updateFormSet', set({ name: 'x' })],
    ['DELETE', 'deleteFormSet'],
  ]),
  {
    method: 'POST',
    path: '/v1/form_sets/{form_set_id}/conditions',
    request: async (ctx) => ({ params: { form_set_id: await formSet(ctx) }, body: condition(equal) }),
    status: 201,
    schema: { reference: 'createFormSetCondition', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/form_sets/{form_set_id}/conditions',
    variant: 'a comparison other than equal',
    request: async (ctx) => ({ params: { form_set_id: await formSet(ctx) }, body: condition({ ...equal, comparison: 'contains' }) }),
    status: 422,
    schema: { reference: 'createFormSetCondition', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/form_sets/{form_set_id}/conditions',
    variant: 'no credential',
    request: (ctx) => ({ params: { form_set_id: ctx.unknownId }, body: condition(equal), token: null }),
    status: 401,
    schema: { reference: 'createFormSetCondition', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/form_sets/{form_set_id}/conditions',
    request: async (ctx) => ({ params: { form_set_id: await formSet(ctx) } }),
    status: 200,
    schema: { reference: 'listFormSetConditions', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/form_sets/{form_set_id}/conditions',
    variant: 'filter[form_field_id], include=form_set',
    request: async (ctx) => {
      const id = await formSet(ctx);
      await ctx.call('POST', `/v1/form_sets/${id}/conditions`, { body: condition(equal) });
      return { params: { form_set_id: id }, query: 'filter[form_field_id]=severity&include=form_set' };
    },
    status: 200,
    schema: { reference: 'listFormSetConditions', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/form_set_conditions/{id}',
    request: async (ctx) => ({ params: { id: await formSetCondition(ctx) } }),
    status: 200,
    schema: { reference: 'getFormSetCondition', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/form_set_conditions/{id}',
    request: async (ctx) => ({ params: { id: await formSetCondition(ctx) }, body: condition({ values: ['sev0', 'sev1'] }) }),
    status: 200,
    schema: { reference: 'updateFormSetCondition', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/form_set_conditions/{id}',
    request: async (ctx) => ({ params: { id: await formSetCondition(ctx) } }),
    status: 200,
    schema: { reference: 'deleteFormSetCondition', status: 200 },
  },
  ...unknownIdRows('/v1/form_set_conditions/{id}', [
    ['GET', 'getFormSetCondition'],
    ['PUT', 'updateFormSetCondition', condition({ values: [] })],
    ['DELETE', 'deleteFormSetCondition'],
  ]),
];
