import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import type { ConformanceOperation } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const rule = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_retrigger_rules', attributes } });
const unique = () => randomUUID().slice(0, 8);

const KINDS = ['urgency', 'source', 'service', 'group', 'alert_field', 'payload'];
const OPERATORS = [
  'is_one_of',
  'is_not_one_of',
  'is_set',
  'is_not_set',
  'contains',
  'does_not_contain',
  'starts_with',
  'ends_with',
  'matches_regex',
];
const TIMEOUTS = [10, 20, 30, 40, 50, 60, 90, 120, 180, 240, 300, 360, 720, 1440, null];

/**
 * The reference document lacks re-trigger rules: docs/on-call.md gives their attributes
 * field by field, so responses are held to that, closed.
 */
const attributes = {
  type: 'object',
  required: ['name', 'match_mode', 'timeout_minutes', 'position', 'conditions', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    match_mode: { enum: ['match-all-rules', 'match-any-rule'] },
    timeout_minutes: { enum: TIMEOUTS },
    position: { type: 'integer' },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind', 'operator'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          kind: { enum: KINDS },
          operator: { enum: OPERATORS },
          record_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
          values: { type: 'array', items: { type: 'string' } },
          property_field_name: { type: 'string' },
        },
      },
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};
const single = { spec: 'single', type: 'alert_retrigger_rules', cite: 'docs/on-call.md (Alert re-trigger rules)', attributes } as const;
const collection = {
  spec: 'collection',
  type: 'alert_retrigger_rules',
  cite: 'docs/on-call.md (Alert re-trigger rules)',
  attributes,
} as const;
const evaluation = {
  spec: 'single',
  type: 'alert_retrigger_rule_evaluations',
  cite: 'docs/api-contract.md §2 (Documents); docs/on-call.md (evaluate, issue 11)',
} as const;

async function urgencyId(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/alert_urgencies', {
    body: { data: { type: 'alert_urgencies', attributes: { name: `Urgency ${unique()}`, description: 'd' } } },
  });
  if (res.status !== 201) throw new Error(`fixture: alert urgency answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Every attribute, and a condition of each kind. */
async function everyAttribute(ctx: ConformanceContext): Promise<Record<string, unknown>> {
  return {
    name: `Night ${unique()}`,
    match_mode: 'match-any-rule',
    timeout_minutes: 30,
    position: 2,
    conditions: [
      { kind: 'urgency', operator: 'is_one_of', record_ids: [await urgencyId(ctx)] },
      { kind: 'source', operator: 'is_not_one_of', record_ids: [randomUUID()], values: ['manual', 'api'] },
      { kind: 'service', operator: 'is_set' },
      { kind: 'group', operator: 'is_not_one_of', record_ids: [randomUUID()] },
      { kind: 'alert_field', operator: 'starts_with', property_field_name: randomUUID(), values: ['prod'] },
      { kind: 'payload', operator: 'matches_regex', property_field_name: '$.priority', values: ['^P[12]$'] },
    ],
  };
}

async function retriggerRule(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/alert_retrigger_rules', { body: rule(await everyAttribute(ctx)) });
  if (res.status !== 201) throw new Error(`fixture: alert re-trigger rule answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

const unknownId = (method: 'GET' | 'PUT' | 'DELETE', body?: unknown): ConformanceOperation => ({
  method,
  path: '/v1/alert_retrigger_rules/{id}',
  variant: 'unknown id',
  request: (ctx) => ({ params: { id: ctx.unknownId }, body }),
  status: 404,
  schema: errorDocument,
});

/** Alert re-trigger rules (docs/on-call.md), held to the shapes documented there: the reference document lacks them. */
export const alertRetriggerRuleOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'every attribute, a condition of each kind',
    request: async (ctx) => ({ body: rule(await everyAttribute(ctx)) }),
    status: 201,
    schema: single,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'only the required name',
    request: () => ({ body: rule({ name: `Bare ${unique()}` }) }),
    status: 201,
    schema: single,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'name missing',
    request: () => ({ body: rule({ timeout_minutes: 30 }) }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'a timeout off the allowed list',
    request: () => ({ body: rule({ name: 'x', timeout_minutes: 45 }) }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'a regex that does not compile',
    request: () => ({
      body: rule({ name: 'x', conditions: [{ kind: 'payload', operator: 'matches_regex', property_field_name: '$.a', values: ['('] }] }),
    }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules',
    variant: 'no credential',
    request: () => ({ body: rule({ name: 'x' }), token: null }),
    status: 401,
    schema: errorDocument,
  },
  { method: 'GET', path: '/v1/alert_retrigger_rules', status: 200, schema: collection },
  {
    method: 'GET',
    path: '/v1/alert_retrigger_rules',
    variant: 'no credential',
    request: () => ({ token: null }),
    status: 401,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/alert_retrigger_rules/{id}',
    request: async (ctx) => ({ params: { id: await retriggerRule(ctx) } }),
    status: 200,
    schema: single,
  },
  {
    method: 'PUT',
    path: '/v1/alert_retrigger_rules/{id}',
    variant: 'conditions replaced',
    request: async (ctx) => ({
      params: { id: await retriggerRule(ctx) },
      body: rule({
        name: 'Renamed',
        match_mode: 'match-all-rules',
        timeout_minutes: null,
        position: 1,
        conditions: [{ kind: 'service', operator: 'is_set' }],
      }),
    }),
    status: 200,
    schema: single,
  },
  {
    method: 'PUT',
    path: '/v1/alert_retrigger_rules/{id}',
    variant: 'an attribute the PUT does not take',
    request: async (ctx) => ({ params: { id: await retriggerRule(ctx) }, body: rule({ enabled: true }) }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'PUT',
    path: '/v1/alert_retrigger_rules/{id}',
    variant: 'type missing',
    request: async (ctx) => ({ params: { id: await retriggerRule(ctx) }, body: { data: { attributes: { name: 'x' } } } }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'DELETE',
    path: '/v1/alert_retrigger_rules/{id}',
    request: async (ctx) => ({ params: { id: await retriggerRule(ctx) } }),
    status: 200,
    schema: { spec: 'empty', cite: 'docs/api-contract.md §2 (Status codes of success): 200 with no body' },
  },
  unknownId('GET'),
  unknownId('PUT', rule({ name: 'x' })),
  unknownId('DELETE'),
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules/evaluate',
    request: async (ctx) => {
      await retriggerRule(ctx);
      return {
        body: { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: { source: 'api', payload: { priority: 'P1' } } } } },
      };
    },
    status: 200,
    schema: evaluation,
  },
  {
    method: 'POST',
    path: '/v1/alert_retrigger_rules/evaluate',
    variant: 'an alert that is not an object',
    request: () => ({ body: { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: [] } } } }),
    status: 422,
    schema: errorDocument,
  },
];
