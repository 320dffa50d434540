import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const process = (attributes: Record<string, unknown>) => ({ data: { type: 'retrospective_processes', attributes } });
const name = () => `Process ${randomUUID().slice(0, 8)}`;

/** A fresh retrospective process; its id. */
async function retrospectiveProcess(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/retrospective_processes', { body: process({ name: name(), copy_from: 'starter_template' }) });
  if (res.status !== 201) throw new Error(`fixture: retrospective process answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The id of one of the team's starting severities (docs/api-contract.md §1). */
async function severity(ctx: ConformanceContext, slug: string): Promise<string> {
  return (await ctx.call('GET', `/v1/severities/${slug}`)).body.data.id as string;
}

/** Retrospective processes (docs/decisions.md, Resources); the team's default comes with its first. */
export const retrospectiveProcessOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/retrospective_processes',
    variant: 'every attribute set',
    request: async (ctx) => ({
      body: process({
        name: name(),
        copy_from: 'starter_template',
        description: 'For the worst',
        retrospective_process_matching_criteria: { severity_ids: [await severity(ctx, 'sev0')] },
      }),
    }),
    status: 201,
    schema: { reference: 'createRetrospectiveProcess', status: 201 },
  },
  {
    method: 'GET',
    path: '/v1/retrospective_processes/{id}',
    variant: 'include=severities,incident_types',
    request: async (ctx) => {
      const created = await ctx.call('POST', '/v1/retrospective_processes', {
        body: process({
          name: name(),
          copy_from: 'starter_template',
          retrospective_process_matching_criteria: { severity_ids: [await severity(ctx, 'sev1')] },
        }),
      });
      return { params: { id: created.body.data.id }, query: 'include=severities,incident_types' };
    },
    status: 200,
    schema: { reference: 'getRetrospectiveProcess', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/retrospective_processes',
    variant: 'criteria null (answered as an empty object)',
    request: () => ({ body: process({ name: name(), copy_from: 'starter_template', retrospective_process_matching_criteria: null }) }),
    status: 201,
    schema: { reference: 'createRetrospectiveProcess', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/retrospective_processes',
    variant: 'copied from another process',
    request: async (ctx) => ({ body: process({ name: name(), copy_from: await retrospectiveProcess(ctx) }) }),
    status: 201,
    schema: { reference: 'createRetrospectiveProcess', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/retrospective_processes',
    variant: 'copy_from missing',
    request: () => ({ body: process({ name: name() }) }),
    status: 422,
    schema: { reference: 'createRetrospectiveProcess', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/retrospective_processes',
    variant: 'no credential',
    request: () => ({ body: process({ name: name(), copy_from: 'starter_template' }), token: null }),
    status: 401,
    schema: { reference: 'createRetrospectiveProcess', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/retrospective_processes',
    variant: 'the default among them',
    request: async (ctx) => {
      await retrospectiveProcess(ctx);
      return {};
    },
    status: 200,
    schema: { reference: 'listRetrospectiveProcesses', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/retrospective_processes',
    variant: 'a page of one',
    request: () => ({ query: 'page[size]=1&page[number]=2' }),
    status: 200,
    schema: { reference: 'listRetrospectiveProcesses', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/retrospective_processes/{id}',
    request: async (ctx) => ({ params: { id: await retrospectiveProcess(ctx) } }),
    status: 200,
    schema: { reference: 'getRetrospectiveProcess', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/retrospective_processes/{id}',
    request: async (ctx) => ({
      params: { id: await retrospectiveProcess(ctx) },
      body: process({ description: null, retrospective_process_matching_criteria: { group_ids: [await ctx.create.team()] } }),
    }),
    status: 200,
    schema: { reference: 'updateRetrospectiveProcess', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/retrospective_processes/{id}',
    request: async (ctx) => ({ params: { id: await retrospectiveProcess(ctx) } }),
    status: 200,
    schema: { reference: 'deleteRetrospectiveProcess', status: 200 },
  },
  ...unknownIdRows('/v1/retrospective_processes/{id}', [
    ['GET', 'getRetrospectiveProcess'],
    ['PUT', 'updateRetrospectiveProcess', process({ name: 'x' })],
    ['DELETE', 'deleteRetrospectiveProcess'],
  ]),
];
