import type { Row, Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { PagingRecord, PagingStore } from './paging.deps.js';
import type { AlertDestination, AlertRouter, EscalationPathPlan, EscalationPlans, TargetResolution } from './paging.ports.js';
import { escalationPosition, isLate, plannedNotifications, startPosition, stepAt, type PagingPosition } from './paging-steps.js';
import { describeRouting } from './paging-explain.js';

/** Who caused a change of paging: the API's acting user, a job, a signed link. */
export interface PagingActor {
  source: string;
  user_id: number | null;
}

export interface PagingEngineOptions {
  store: PagingStore;
  router: AlertRouter;
  plans: EscalationPlans;
  /** A step fired more than this after it was due is marked late (after downtime). */
  lateAfterMs: number;
}

const ENGINE: PagingActor = { source: 'paging', user_id: null };

/**
 * The paging engine (docs/paging.md, "The paging engine"): starts an alert's paging where
 * routing sends it, steps its levels on durable timers (the paging job fires due steps),
 * stops it on acknowledge or resolve, and records every decision as an alert event, in
 * order, so the timeline answers "why was I paged". Everything runs in the caller's
 * transaction; notifications become attempts the notification job sends outside it.
 */
export function createPagingEngine({ store, router, plans, lateAfterMs }: PagingEngineOptions) {
  const record = (
    tx: Transaction,
    alert: Row,
    kind: AlertEventInput['kind'],
    action: AlertEventInput['action'],
    details: string,
    actor = ENGINE,
  ) => store.recordEvent(tx, { team_id: Number(alert.team_id), alert_id: String(alert.id), kind, action, details, ...actor });

  /** Where the alert goes: the target it names, else the first matching route's destinations. */
  async function destinations(tx: Transaction, alert: Row): Promise<AlertDestination[]> {
    const type = alert.notification_target_type as AlertDestination['target_type'] | null;
    if (type && alert.notification_target_id) {
      const destination = { target_type: type, target_id: String(alert.notification_target_id) };
      await record(tx, alert, 'alert_routing', 'paged', `Not routed: the alert names its target, ${type} ${destination.target_id}.`);
      return [destination];
    }
    const decision = await router.route(tx, Number(alert.team_id), alert);
    // No route for its source: nothing was configured to page, and the timeline says nothing of it.
    const { route } = decision;
    if (route)
      await record(tx, alert, 'alert_routing', decision.destinations.length ? 'paged' : 'skipped', describeRouting({ ...decision, route }));
    return decision.destinations;
  }

  /** The path a destination leads to: its policy's (the path rules pick), or a one-level page of a user. */
  async function planFor(tx: Transaction, alert: Row, destination: AlertDestination, at: Date): Promise<EscalationPathPlan | null> {
    const teamId = Number(alert.team_id);
    if (destination.target_type === 'User') return userPlan(destination.target_id);
    const policy = await plans.policyFor(tx, teamId, destination);
    if (!policy) {
      await record(
        tx,
        alert,
        'alert_routing',
        'skipped',
        `${destination.target_type} ${destination.target_id} leads to no escalation policy: nobody paged for it.`,
      );
      return null;
    }
    const plan = await plans.pathFor(tx, teamId, policy.id, alert, at);
    if (!plan)
      await record(
        tx,
        alert,
        'action',
        'skipped',
        `Escalation policy ${policy.name} (${policy.id}) has no path for this alert: nobody paged for it.`,
      );
    return plan;
  }

  /** A new paging of `plan` in run `run`; its first step fires now when the path has no initial delay. */
  async function begin(
    tx: Transaction,
    alert: Row,
    run: number,
    plan: EscalationPathPlan,
    at: Date,
    actor = ENGINE,
    position?: PagingPosition,
  ) {
    const start = startPosition(plan, at);
    const paging = await store.insertPaging(tx, {
      team_id: Number(alert.team_id),
      alert_id: String(alert.id),
      run,
      escalation_policy_id: plan.policy.id || null,
      plan,
      ...(position ?? start.position),
      next_step_at: position ? at : start.due_at,
      state: 'active',
    });
    await record(
      tx,
      alert,
      'action',
      'escalation_policy_paged',
      `Paging escalation policy ${plan.policy.name} (${plan.policy.id}), path ${plan.path.name} (${plan.path.id}): ${plan.reason}.` +
        (start.due_at > at && !position ? ` Level 1 pages at ${start.due_at.toISOString()}.` : ''),
      actor,
    );
    if (position || start.due_at <= at) await fire(tx, paging, alert, at, at, actor);
    return paging;
  }

  /** Steps `paging` at `now`: pages its level (levels nobody is behind are skipped at once), or ends it. */
  async function fire(tx: Transaction, paging: PagingRecord, alert: Row, dueAt: Date, now: Date, actor = ENGINE, oneShot = false) {
    const late = isLate(dueAt, now, lateAfterMs) ? ` Late: due at ${dueAt.toISOString()}, fired after downtime.` : '';
    let position: PagingPosition = { level_index: paging.level_index, round: paging.round };
    for (;;) {
      const step = stepAt(paging.plan, position, now);
      if (step.kind === 'end') {
        await store.updatePaging(tx, paging.id, { ...position, state: 'ended', next_step_at: null, stopped_reason: 'unanswered' });
        await record(
          tx,
          alert,
          'informational',
          'updated',
          `Paging of escalation policy ${paging.plan.policy.name} ended unanswered after ${step.rounds} round(s).${late}`,
        );
        return;
      }
      const resolutions = await plans.resolveLevel(tx, paging.team_id, step.level, alert, now);
      const userIds = [...new Set(resolutions.flatMap((r) => r.user_ids))];
      const where = `level ${step.level_number} of ${paging.plan.policy.name}${step.round ? ` (repeat ${step.round})` : ''}`;
      const paged = userIds.length ? await notify(tx, paging, alert, userIds, step.level.position, now) : [];
      await record(
        tx,
        alert,
        'action',
        paged.length ? 'paged' : 'level_skipped',
        `${paged.length ? 'Paged' : 'Skipped'} ${where}: ${explain(resolutions)}.${paged.length ? '' : ' Nobody to page.'}${late}`,
        actor,
      );
      await pageTeamPolicies(tx, paging, alert, resolutions, now);
      position = step.next;
      if (!paged.length && !oneShot) continue;
      await store.updatePaging(tx, paging.id, oneShot ? {} : { ...step.next, next_step_at: step.next_at });
      return;
    }
  }

  /** The attempts for each paged user (their rules, else the account email); returns the users reached. */
  async function notify(tx: Transaction, paging: PagingRecord, alert: Row, userIds: number[], level: number, at: Date) {
    const users = await store.pagedUsers(tx, paging.team_id, userIds);
    const attempts = [...users.values()].flatMap(({ user, rules }) =>
      plannedNotifications(rules, paging.plan.notification_type, user.email, at).map((n) => ({
        team_id: paging.team_id,
        alert_id: paging.alert_id,
        alert_paging_id: paging.id,
        user_id: user.user_id,
        notification_type: paging.plan.notification_type,
        level_position: level,
        ...n,
      })),
    );
    if (attempts.length) await store.insertAttempts(tx, attempts);
    return [...users.keys()];
  }

  /** A team whose members escalate to its own policy pages that policy too, once per alert run: a loop is cut and recorded. */
  async function pageTeamPolicies(tx: Transaction, paging: PagingRecord, alert: Row, resolutions: TargetResolution[], at: Date) {
    const policies = resolutions.flatMap((r) => r.policies);
    if (!policies.length) return;
    const run = await store.latestRun(tx, paging.alert_id);
    const paged = new Set(run.map((p) => p.escalation_policy_id));
    for (const policy of policies) {
      if (paged.has(policy.id)) {
        await record(
          tx,
          alert,
          'action',
          'skipped',
          `Escalation policy ${policy.name} (${policy.id}) already pages this alert: not paged again (a loop, cut).`,
        );
        continue;
      }
      paged.add(policy.id);
      const plan = await plans.pathFor(tx, paging.team_id, policy.id, alert, at);
      if (plan) await begin(tx, alert, paging.run, plan, at);
    }
  }

  return {
    /**
     * Starts paging a triggered alert that pages (a group's leader, or in no group): a new
     * run, one paging per policy its destinations lead to. Anything else is left alone.
     */
    async start(tx: Transaction, alert: Row, at: Date): Promise<void> {
      if (alert.status !== 'triggered' || alert.group_leader_alert_id) return;
      await store.stopAll(tx, String(alert.id), 'restarted', at);
      const run = await store.nextRun(tx, String(alert.id));
      const seen = new Set<string>();
      for (const destination of await destinations(tx, alert)) {
        const plan = await planFor(tx, alert, destination, at);
        const key = plan?.policy.id || `${destination.target_type}:${destination.target_id}`;
        if (!plan || seen.has(key)) continue;
        seen.add(key);
        await begin(tx, alert, run, plan, at);
      }
    },

    /** Stops the alert's paging and cancels its due notifications (acknowledged, resolved, snoozed). */
    async stop(tx: Transaction, alert: Row, why: string, at: Date, actor: PagingActor): Promise<void> {
      const stopped = await store.stopAll(tx, String(alert.id), why, at);
      if (stopped.pagings || stopped.notifications)
        await record(
          tx,
          alert,
          'informational',
          'updated',
          `Paging stopped (${why}): ${stopped.pagings} escalation polic${stopped.pagings === 1 ? 'y' : 'ies'}, ${stopped.notifications} due notification(s) cancelled.`,
          actor,
        );
    },

    /** Fires a due paging the job claimed; a paging of an alert no longer triggered is stopped instead. */
    async step(tx: Transaction, paging: PagingRecord, now: Date): Promise<{ late: boolean }> {
      const alert = await store.alert(tx, paging.alert_id);
      const dueAt = paging.next_step_at ?? now;
      if (!alert || alert.status !== 'triggered') {
        await store.updatePaging(tx, paging.id, {
          state: 'stopped',
          next_step_at: null,
          stopped_reason: `alert ${String(alert?.status ?? 'gone')}`,
        });
        return { late: false };
      }
      await fire(tx, paging, alert, dueAt, now);
      return { late: isLate(dueAt, now, lateAfterMs) };
    },

    /**
     * `POST /v1/alerts/{id}/escalate`: pages a level now — of `policyId` when given (level 1
     * unless `level`), else of the alert's current policy (the next level unless `level`).
     * A triggered alert's paging goes on from there; otherwise the page is one-off.
     * Returns an error (pointer, detail) when there is nothing to escalate to.
     */
    async escalate(
      tx: Transaction,
      alert: Row,
      request: { policyId?: string; level?: number },
      at: Date,
      actor: PagingActor,
    ): Promise<{ pointer: string; detail: string } | null> {
      const teamId = Number(alert.team_id);
      const run = await store.latestRun(tx, String(alert.id));
      const current = [...run]
        .reverse()
        .find((p) => p.escalation_policy_id && (!request.policyId || p.escalation_policy_id === request.policyId));
      const levelPointer = '/data/attributes/escalation_policy_level';
      if (current) {
        const position = escalationPosition(current.plan, current, request.level);
        if (!position)
          return {
            pointer: levelPointer,
            detail: `escalation_policy_level exceeds the ${current.plan.levels.length} level(s) of ${current.plan.policy.name}.`,
          };
        await record(
          tx,
          alert,
          'action',
          'escalated',
          `Escalated to level ${position.level_index + 1} of ${current.plan.policy.name}.`,
          actor,
        );
        const live = alert.status === 'triggered';
        if (live) await store.updatePaging(tx, current.id, { state: 'active' });
        await fire(tx, { ...current, ...position }, alert, at, at, actor, !live);
        return null;
      }
      if (!request.policyId)
        return {
          pointer: '/data/attributes/escalation_policy_id',
          detail: 'The alert pages no escalation policy: name one in escalation_policy_id.',
        };
      const plan = await plans.pathFor(tx, teamId, request.policyId, alert, at);
      if (!plan)
        return {
          pointer: '/data/attributes/escalation_policy_id',
          detail: `The team has no escalation policy ${request.policyId} with a path for this alert.`,
        };
      const position = escalationPosition(plan, { level_index: 0, round: 0 }, request.level ?? 1);
      if (!position)
        return {
          pointer: levelPointer,
          detail: `escalation_policy_level exceeds the ${plan.levels.length} level(s) of ${plan.policy.name}.`,
        };
      await record(tx, alert, 'action', 'escalated', `Escalated to level ${position.level_index + 1} of ${plan.policy.name}.`, actor);
      await begin(tx, alert, run[0]?.run ?? (await store.nextRun(tx, String(alert.id))), plan, at, actor, position);
      if (alert.status !== 'triggered')
        await store.stopAll(tx, String(alert.id), `one-off escalation of a ${String(alert.status)} alert`, at);
      return null;
    },
  };
}

/** A user paged directly (an alert or route naming a user): one level, that user, once. */
function userPlan(userId: string): EscalationPathPlan {
  return {
    policy: { id: '', name: `user ${userId}` },
    path: { id: '', name: 'direct', is_default: true },
    initial_delay: 0,
    notification_type: 'audible',
    repeat_count: 0,
    levels: [
      { id: '', position: 1, delay: 0, paging_strategy: 'default', schedule_strategy: 'everyone', targets: [{ type: 'user', id: userId }] },
    ],
    reason: 'the alert is sent to this user directly',
  };
}

const explain = (resolutions: TargetResolution[]) => resolutions.map((r) => r.explanation).join('; ') || 'no targets';

export type PagingEngine = ReturnType<typeof createPagingEngine>;
