import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import type { ConformanceOperation } from '../conformance-operation.js';
import { created, doc, scheduleOfAdmin } from '../support/schedule.fixture.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;

/**
 * An escalation policy whose level pages a schedule (a weekly Berlin rotation of the
 * team's admin, and an override), the admin directly and a team. The admin reaches
 * on-call through auth's events, so the schedule is retried briefly.
 */
const policies = new WeakMap<ConformanceContext, Promise<{ policyId: string; scheduleId: string }>>();
function policyWithSchedule(ctx: ConformanceContext) {
  if (!policies.has(ctx)) {
    policies.set(
      ctx,
      (async () => {
        const { scheduleId, userId } = await scheduleOfAdmin(ctx, 'On-calls');
        const policyId = await created(
          ctx,
          '/v1/escalation_policies',
          doc('escalation_policies', { name: `On-calls ${randomUUID().slice(0, 8)}` }),
        );
        await created(
          ctx,
          `/v1/escalation_policies/${policyId}/escalation_levels`,
          doc('escalation_levels', {
            position: 1,
            notification_target_params: [
              { type: 'schedule', id: scheduleId },
              { type: 'user', id: String(userId) },
              { type: 'team', id: await ctx.create.team(), team_members: 'all' },
            ],
          }),
        );
        // The rows judge real entries: the override's and the user's at least.
        const answer = await ctx.call('GET', `/v1/oncalls?since=2026-10-14T12:00:00Z&filter[escalation_policy_ids]=${policyId}`);
        if (answer.status !== 200 || answer.body.data.length < 2)
          throw new Error(`fixture: GET /v1/oncalls answered ${JSON.stringify(answer.body)}`);
        return { policyId, scheduleId };
      })(),
    );
  }
  return policies.get(ctx)!;
}

/** GET /v1/oncalls (issue 24; docs/paging.md, "Who is paged, and who is on call"): computed entries against listOncalls. */
export const oncallOperations: ConformanceOperation[] = [
  {
    method: 'GET',
    path: '/v1/oncalls',
    variant: 'an instant, a level of a schedule (an override), a user and a team, with every include',
    request: async (ctx) => {
      await policyWithSchedule(ctx);
      return { query: 'since=2026-10-14T12:00:00Z&include=user,schedule,escalation_policy' };
    },
    status: 200,
    schema: { reference: 'listOncalls', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/oncalls',
    variant: 'a window, earliest, time_zone and every filter',
    request: async (ctx) => {
      const { policyId, scheduleId } = await policyWithSchedule(ctx);
      const filters = `filter[escalation_policy_ids]=${policyId}&filter[schedule_ids]=${scheduleId}&filter[notification_types]=audible,quiet`;
      return { query: `since=2026-10-01T00:00:00Z&until=2026-10-31T00:00:00Z&earliest=true&time_zone=Europe/Berlin&${filters}` };
    },
    status: 200,
    schema: { reference: 'listOncalls', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/oncalls',
    variant: 'until before since',
    request: () => ({ query: 'since=2026-10-14T12:00:00Z&until=2026-10-13T12:00:00Z' }),
    status: 400,
    schema: errorDocument,
  },
  {
    method: 'GET',
    path: '/v1/oncalls',
    variant: 'no credential',
    request: () => ({ token: null }),
    status: 401,
    schema: { reference: 'listOncalls', status: 401 },
  },
];
