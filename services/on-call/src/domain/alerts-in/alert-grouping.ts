import type { Row, Transaction } from '@firewatch/resource-kit';
import { EvaluationBudgetExceeded, evaluationBudget, type AlertInput, type EvaluationBudget } from '../matching/index.js';
import { judgeGroup, rankGroups, type GroupRouting, type RankedGroup } from '../alerts/alert-group-match.js';
import { alertInputOf } from './alert-input.js';

/** What grouping needs of storage (alert-grouping.repository.ts implements it). */
export interface GroupingStore {
  /** The team's alert groups with their `conditions` (stored shape, in position order). */
  groups(tx: Transaction, teamId: number): Promise<Row[]>;
  /**
   * Waits for, then holds until `tx` ends, the lock of one group of a team (of its alerts
   * of one summary, when `summary` is given): leaders are chosen one at a time.
   */
  lockGroup(tx: Transaction, teamId: number, groupId: string, summary?: string): Promise<void>;
  /** {@link lockGroup} of each, in the order given, in one round trip. */
  lockGroups(tx: Transaction, teamId: number, groups: readonly { groupId: string; summary: string | undefined }[]): Promise<void>;
  /**
   * The group's unresolved leaders created at or after `since`, oldest first (at most 100);
   * only those of `summary` when given. `lock`: first takes the group's lock (lockGroup), in
   * the same round trip.
   */
  openLeaders(tx: Transaction, teamId: number, groupId: string, since: Date, summary: string | undefined, lock: boolean): Promise<Row[]>;
}

/** Where a new alert stands: the columns it is stored with. */
export interface Placement {
  alert_group_id: string | null;
  group_leader_alert_id: string | null;
  is_group_leader_alert: boolean;
}

const ALONE: Placement = { alert_group_id: null, group_leader_alert_id: null, is_group_leader_alert: false };
const MINUTE_MS = 60_000;

const ids = (value: unknown) => ((value as string[] | null) ?? []).map((id) => id.toLowerCase());

/**
 * The summary a group's lock may be narrowed to: when all of the group's conditions must
 * hold and one is "the same summary as the existing alert" (the legacy
 * `group_by_alert_title`), alerts of different summaries can never share a leader, so
 * they need not take turns; a busy group of many titles then groups in parallel.
 */
function lockedSummary(group: RankedGroup, alert: AlertInput): string | undefined {
  if (group.row.condition_type === 'any' || alert.summary === null) return undefined;
  const sameSummary = group.stored.some(
    (c) =>
      c.property_field_type === 'attribute' &&
      c.property_field_name === 'summary' &&
      c.property_field_condition_type === 'matches_existing_alert',
  );
  return sameSummary ? alert.summary : undefined;
}

function routingOf(columns: Row): GroupRouting {
  const target = columns.notification_target_type === 'EscalationPolicy' ? [String(columns.notification_target_id).toLowerCase()] : [];
  return {
    service_ids: ids(columns.service_ids),
    group_ids: ids(columns.group_ids),
    escalation_policy_ids: target,
    functionality_ids: ids(columns.functionality_ids),
  };
}

/**
 * Grouping (docs/on-call.md, "Grouping"), with the engine `POST /v1/alert_groups/evaluate`
 * uses. The alert's group is the first (oldest) group whose targets and conditions it
 * meets, `matches_existing_alert` being met by the alert itself (it may start a group).
 * In that group, under the group's lock, it joins the oldest unresolved leader created
 * within `time_window` minutes whose conditions hold with that leader as the existing
 * alert (evaluate's `existing_alerts`); with none, it leads. An alert too costly to judge
 * stays alone rather than being refused: grouping must not lose an alert.
 */
export function createAlertGrouping(store: GroupingStore, now: () => Date = () => new Date()) {
  // Read once per transaction and team: an Alertmanager payload of a thousand alerts would otherwise read the groups a thousand times.
  const read = new WeakMap<Transaction, Map<number, Promise<Row[]>>>();
  function groupsOf(tx: Transaction, teamId: number): Promise<Row[]> {
    const byTeam = read.get(tx) ?? new Map<number, Promise<Row[]>>();
    read.set(tx, byTeam);
    const groups = byTeam.get(teamId) ?? store.groups(tx, teamId);
    byTeam.set(teamId, groups);
    return groups;
  }

  // The group locks each transaction holds: taken once (lockAll may have taken them before place).
  const held = new WeakMap<Transaction, Set<string>>();
  /** Marks the group's lock held by `tx`; true when it was not, and the caller takes it now. */
  function claim(tx: Transaction, groupId: string, summary: string | undefined): boolean {
    const locks = held.get(tx) ?? new Set<string>();
    held.set(tx, locks);
    const name = `${groupId}\u0000${summary ?? ''}`;
    if (locks.has(name)) return false;
    locks.add(name);
    return true;
  }

  /** The first (oldest) group the alert meets, and the summary its lock narrows to; undefined in none. */
  async function groupOf(tx: Transaction, teamId: number, alert: AlertInput, routing: GroupRouting, budget: EvaluationBudget) {
    const groups = await groupsOf(tx, teamId);
    const group = rankGroups(groups).find((g) => judgeGroup(g, alert, routing, [alert], budget).matched);
    return group && { group, summary: lockedSummary(group, alert) };
  }

  /** The group's oldest unresolved leader within its window that the alert meets the conditions with. */
  async function leaderFor(
    tx: Transaction,
    teamId: number,
    group: RankedGroup,
    alert: AlertInput,
    routing: GroupRouting,
    budget: EvaluationBudget,
    summary: string | undefined,
  ) {
    const since = new Date(now().getTime() - Number(group.row.time_window) * MINUTE_MS);
    // Narrowed to the summary when only a leader of that summary can match: the 100 read would
    // otherwise be the group's oldest leaders of any title, and a busy group's missed its own.
    // The group's lock, when not held yet, goes with the read: one round trip.
    const leaders = await store.openLeaders(tx, teamId, group.id, since, summary, claim(tx, group.id, summary));
    return leaders.find((l) => judgeGroup(group, alert, routing, [alertInputOf(l)], budget).matched);
  }

  return {
    async place(tx: Transaction, teamId: number, columns: Row): Promise<Placement> {
      if (!(await groupsOf(tx, teamId)).length) return ALONE;
      const alert = alertInputOf(columns);
      const routing = routingOf(columns);
      const budget = evaluationBudget();
      try {
        const found = await groupOf(tx, teamId, alert, routing, budget);
        if (!found) return ALONE;
        const { group, summary } = found;
        const leader = await leaderFor(tx, teamId, group, alert, routing, budget, summary);
        return leader
          ? { alert_group_id: group.id, group_leader_alert_id: String(leader.id), is_group_leader_alert: false }
          : { alert_group_id: group.id, group_leader_alert_id: null, is_group_leader_alert: true };
      } catch (error) {
        if (error instanceof EvaluationBudgetExceeded) return ALONE;
        throw error;
      }
    },

    /**
     * Takes, in one order, the group locks `place` would take for each of `alerts` (their
     * columns): a payload of several alerts placing them one by one took them in its alerts'
     * order, and two such payloads could each hold a lock the other waits for (a deadlock).
     */
    async lockAll(tx: Transaction, teamId: number, alerts: Row[]): Promise<void> {
      if (!(await groupsOf(tx, teamId)).length) return;
      const wanted = new Map<string, { groupId: string; summary: string | undefined }>();
      for (const columns of alerts) {
        const alert = alertInputOf(columns);
        try {
          const found = await groupOf(tx, teamId, alert, routingOf(columns), evaluationBudget());
          if (found) wanted.set(`${found.group.id}\u0000${found.summary ?? ''}`, { groupId: found.group.id, summary: found.summary });
        } catch (error) {
          // Too costly to judge: place leaves it alone, taking no lock.
          if (!(error instanceof EvaluationBudgetExceeded)) throw error;
        }
      }
      const locks = [...wanted.keys()]
        .sort()
        .map((name) => wanted.get(name)!)
        .filter(({ groupId, summary }) => claim(tx, groupId, summary));
      // One round trip, the locks taken in the order given.
      if (locks.length) await store.lockGroups(tx, teamId, locks);
    },
  };
}

export type AlertGrouping = ReturnType<typeof createAlertGrouping>;
