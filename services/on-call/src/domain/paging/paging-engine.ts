import type { Row, Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { PagingRecord, PagingStore } from './paging.deps.js';
import type { AlertRouter, EscalationPathPlan, EscalationPlans, TargetResolution } from './paging.ports.js';
import { createPagingDestinations, type PagingActor, type RecordEvent } from './paging-destinations.js';
import { createPagingEscalation } from './paging-escalation.js';
import { createPagingWrites } from './paging-writes.js';
import { isLate, plannedNotifications, startPosition, stepAt, type PagingPosition } from './paging-steps.js';

export type { PagingActor };

export interface PagingEngineOptions {
  store: PagingStore;
  router: AlertRouter;
  plans: EscalationPlans;
  /** A step fired more than this after it was due is marked late (after downtime). */
  lateAfterMs: number;
}

/** How `start` finds the alert. */
export interface StartOptions {
  /** The alert was inserted in this transaction: it has no pagings or attempts yet, and its run is 1. */
  fresh?: boolean;
}

const ENGINE: PagingActor = { source: 'paging', user_id: null };

/**
 * The paging engine (docs/paging.md, "The paging engine"): starts an alert's paging where
 * routing sends it, steps its levels on durable timers (the paging job fires due steps),
 * stops it on acknowledge or resolve, and records every decision as an alert event, in
 * order, so the timeline answers "why was I paged". Everything runs in the caller's
 * transaction; notifications become attempts the notification job sends outside it. Each
 * call's writes are made together as it ends (paging-writes.ts).
 */
export function createPagingEngine({ store, router, plans, lateAfterMs }: PagingEngineOptions) {
  const writes = createPagingWrites(store);
  const record: RecordEvent = async (
    tx: Transaction,
    alert: Row,
    kind: AlertEventInput['kind'],
    action: AlertEventInput['action'],
    details: string,
    actor = ENGINE,
  ) => writes.event(tx, { team_id: Number(alert.team_id), alert_id: String(alert.id), kind, action, details, ...actor });
  const { destinations, planFor } = createPagingDestinations({ router, plans, record });

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
    const paging = writes.paging(tx, {
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
        writes.update(tx, paging.id, { ...position, state: 'ended', next_step_at: null, stopped_reason: 'unanswered' });
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
      if (!oneShot) writes.update(tx, paging.id, { ...step.next, next_step_at: step.next_at });
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
    writes.attempts(tx, attempts);
    return [...users.keys()];
  }

  /** A team whose members escalate to its own policy pages that policy too, once per alert run: a loop is cut and recorded. */
  async function pageTeamPolicies(tx: Transaction, paging: PagingRecord, alert: Row, resolutions: TargetResolution[], at: Date) {
    const policies = resolutions.flatMap((r) => r.policies);
    if (!policies.length) return;
    const run = await writes.latestRun(tx, paging.alert_id);
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

  const escalate = createPagingEscalation({ store, writes, plans, record, begin, fire });

  return {
    /**
     * Starts paging a triggered alert that pages (a group's leader, or in no group): a new
     * run, one paging per policy its destinations lead to. Anything else is left alone.
     */
    async start(tx: Transaction, alert: Row, at: Date, options: StartOptions = {}): Promise<void> {
      if (alert.status !== 'triggered' || alert.group_leader_alert_id) return;
      // A just-inserted alert has no paging or attempt to stop and no earlier run: three round trips of every new alert.
      if (!options.fresh) await store.stopAll(tx, String(alert.id), 'restarted', at);
      const run = options.fresh ? 1 : await store.nextRun(tx, String(alert.id));
      await writes.batched(tx, async () => {
        const seen = new Set<string>();
        for (const destination of await destinations(tx, alert)) {
          const plan = await planFor(tx, alert, destination, at);
          const key = plan?.policy.id || `${destination.target_type}:${destination.target_id}`;
          if (!plan || seen.has(key)) continue;
          seen.add(key);
          await begin(tx, alert, run, plan, at);
        }
      });
    },

    /** Stops the alert's paging and cancels its due notifications (acknowledged, resolved, snoozed). */
    async stop(tx: Transaction, alert: Row, why: string, at: Date, actor: PagingActor): Promise<void> {
      const stopped = await store.stopAll(tx, String(alert.id), why, at);
      if (stopped.pagings || stopped.notifications)
        await writes.batched(tx, () =>
          record(
            tx,
            alert,
            'informational',
            'updated',
            `Paging stopped (${why}): ${stopped.pagings} escalation polic${stopped.pagings === 1 ? 'y' : 'ies'}, ${stopped.notifications} due notification(s) cancelled.`,
            actor,
          ),
        );
    },

    /**
     * Fires a due paging the job claimed; a paging of an alert no longer triggered is stopped instead.
     * `busy`: a writer (an acknowledge, which stops paging next) holds the alert, so it is left due,
     * untouched: waiting for it while holding the paging it waits for would deadlock.
     */
    async step(tx: Transaction, paging: PagingRecord, now: Date): Promise<{ late: boolean; busy?: true }> {
      const alert = await store.alert(tx, paging.alert_id);
      if (alert === 'busy') return { late: false, busy: true };
      const dueAt = paging.next_step_at ?? now;
      if (!alert || alert.status !== 'triggered') {
        await store.updatePaging(tx, paging.id, {
          state: 'stopped',
          next_step_at: null,
          stopped_reason: `alert ${String(alert?.status ?? 'gone')}`,
        });
        return { late: false };
      }
      await writes.batched(tx, () => fire(tx, paging, alert, dueAt, now));
      return { late: isLate(dueAt, now, lateAfterMs) };
    },

    escalate: (...args: Parameters<typeof escalate>) => writes.batched(args[0], () => escalate(...args)),
  };
}

const explain = (resolutions: TargetResolution[]) => resolutions.map((r) => r.explanation).join('; ') || 'no targets';

export type PagingEngine = ReturnType<typeof createPagingEngine>;
