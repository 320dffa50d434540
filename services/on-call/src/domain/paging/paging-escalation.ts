import type { Row, Transaction } from '@firewatch/resource-kit';
import type { PagingRecord, PagingStore } from './paging.deps.js';
import type { PagingWriter } from './paging-writes.js';
import type { EscalationPathPlan, EscalationPlans } from './paging.ports.js';
import type { PagingActor, RecordEvent } from './paging-destinations.js';
import { escalationPosition, type PagingPosition } from './paging-steps.js';

/** What escalation needs of the engine: a new paging from a position, and firing a paging at one. */
export interface EscalationSteps {
  store: Pick<PagingStore, 'nextRun'>;
  /** The engine call's writes: they are made when the escalation ends. */
  writes: PagingWriter;
  plans: EscalationPlans;
  record: RecordEvent;
  begin(
    tx: Transaction,
    alert: Row,
    run: number,
    plan: EscalationPathPlan,
    at: Date,
    actor: PagingActor,
    position: PagingPosition,
  ): Promise<PagingRecord>;
  fire(tx: Transaction, paging: PagingRecord, alert: Row, dueAt: Date, now: Date, actor: PagingActor, oneShot: boolean): Promise<void>;
}

const LEVEL = '/data/attributes/escalation_policy_level';
const POLICY = '/data/attributes/escalation_policy_id';
const tooFar = (plan: EscalationPathPlan) => ({
  pointer: LEVEL,
  detail: `escalation_policy_level exceeds the ${plan.levels.length} level(s) of ${plan.policy.name}.`,
});

/**
 * `POST /v1/alerts/{id}/escalate` (docs/paging.md, "The paging engine"): pages a level now —
 * of `policyId` when given (level 1 unless `level`), else of the alert's current policy (the
 * next level unless `level`). A triggered alert's paging goes on from there; an acknowledged
 * or resolved alert is paged once (its notifications sent, its paging left stopped).
 * Returns why not (a pointer and detail for a 422) when there is nothing to escalate to.
 */
export function createPagingEscalation({ store, writes, plans, record, begin, fire }: EscalationSteps) {
  const escalated = (tx: Transaction, alert: Row, position: PagingPosition, plan: EscalationPathPlan, actor: PagingActor) =>
    record(tx, alert, 'action', 'escalated', `Escalated to level ${position.level_index + 1} of ${plan.policy.name}.`, actor);

  return async function escalate(
    tx: Transaction,
    alert: Row,
    request: { policyId?: string; level?: number },
    at: Date,
    actor: PagingActor,
  ): Promise<{ pointer: string; detail: string } | null> {
    const live = alert.status === 'triggered';
    const run = await writes.latestRun(tx, String(alert.id));
    const current = [...run]
      .reverse()
      .find((p) => p.escalation_policy_id && (!request.policyId || p.escalation_policy_id === request.policyId));
    if (current) {
      const position = escalationPosition(current.plan, current, request.level);
      if (!position) return tooFar(current.plan);
      await escalated(tx, alert, position, current.plan, actor);
      if (live) writes.update(tx, current.id, { state: 'active' });
      await fire(tx, { ...current, ...position }, alert, at, at, actor, !live);
      return null;
    }
    if (!request.policyId) return { pointer: POLICY, detail: 'The alert pages no escalation policy: name one in escalation_policy_id.' };
    const plan = await plans.pathFor(tx, Number(alert.team_id), request.policyId, alert, at);
    if (!plan) return { pointer: POLICY, detail: `The team has no escalation policy ${request.policyId} with a path for this alert.` };
    const position = escalationPosition(plan, { level_index: 0, round: 0 }, request.level ?? 1);
    if (!position) return tooFar(plan);
    await escalated(tx, alert, position, plan, actor);
    const paging = await begin(tx, alert, run[0]?.run ?? (await store.nextRun(tx, String(alert.id))), plan, at, actor, position);
    if (!live)
      writes.update(tx, paging.id, {
        state: 'stopped',
        next_step_at: null,
        stopped_reason: `one-off escalation of a ${String(alert.status)} alert`,
      });
    return null;
  };
}
