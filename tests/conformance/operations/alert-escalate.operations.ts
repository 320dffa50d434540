import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const escalate = (attributes?: Record<string, unknown>) => ({ data: { type: 'alerts', ...(attributes ? { attributes } : {}) } });

async function created(ctx: ConformanceContext, at: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', at, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${at} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A triggered alert that pages: its group's leader when another row's alert group took it in. */
async function anAlert(ctx: ConformanceContext): Promise<string> {
  const body = { data: { type: 'alerts', attributes: { summary: `Disk full ${randomUUID().slice(0, 8)}`, status: 'triggered' } } };
  const res = await ctx.call('POST', '/v1/alerts', { body });
  if (res.status !== 201) throw new Error(`fixture: POST /v1/alerts answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body.data.attributes.group_leader_alert_id ?? res.body.data.id) as string;
}

/** A policy of one level (paging nobody: no targets). */
async function aPolicy(ctx: ConformanceContext): Promise<string> {
  const id = await created(ctx, '/v1/escalation_policies', {
    data: { type: 'escalation_policies', attributes: { name: `P ${randomUUID().slice(0, 8)}` } },
  });
  await created(ctx, `/v1/escalation_policies/${id}/escalation_levels`, {
    data: { type: 'escalation_levels', attributes: { position: 1, notification_target_params: [] } },
  });
  return id;
}

/** Escalating an alert (docs/paging.md, "The paging engine"): a level of its policy, or of another, paged now. */
export const alertEscalateOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alerts/{id}/escalate',
    variant: 'to a policy named',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: escalate({ escalation_policy_id: await aPolicy(ctx) }) }),
    status: 200,
    schema: { reference: 'escalateAlert', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/escalate',
    variant: 'a malformed escalation_policy_id',
    request: async (ctx) => ({ params: { id: await anAlert(ctx) }, body: escalate({ escalation_policy_id: 'not-a-policy' }) }),
    status: 400,
    schema: { reference: 'escalateAlert', status: 400 },
  },
  {
    method: 'POST',
    path: '/v1/alerts/{id}/escalate',
    variant: 'a level past the policy',
    request: async (ctx) => ({
      params: { id: await anAlert(ctx) },
      body: escalate({ escalation_policy_id: await aPolicy(ctx), escalation_policy_level: 5 }),
    }),
    status: 422,
    schema: { reference: 'escalateAlert', status: 422 },
  },
  ...unknownIdRows('/v1/alerts/{id}/escalate', [['POST', 'escalateAlert', escalate()]]),
];
