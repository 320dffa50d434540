import type { Row } from '@firewatch/resource-kit';
import {
  evaluateConditions,
  evaluationOrder,
  type AlertInput,
  type ConditionExplanation,
  type EvaluationBudget,
  type MatchMode,
} from '../matching/index.js';
import { toEngineCondition, type StoredGroupCondition } from './alert-groups.conditions.js';

/**
 * How an alert group judges an alert, for `POST /v1/alert_groups/evaluate` and the intake
 * alike (docs/on-call.md, "Grouping"): one engine, so what evaluate answers is what an
 * arriving alert does.
 */

/** Where an alert is routed, which a group's targets are compared with (ids in lower case). */
export interface GroupRouting {
  service_ids: readonly string[];
  group_ids: readonly string[];
  escalation_policy_ids: readonly string[];
  functionality_ids: readonly string[];
}

/** A group as the engine ranks it: its row, its stored conditions and the engine's. */
export interface RankedGroup {
  row: Row;
  id: string;
  position: null;
  created_at: Date;
  stored: StoredGroupCondition[];
  conditions: ReturnType<typeof toEngineCondition>[];
}

/** One group's verdict on one alert. */
export interface GroupVerdict {
  targeted: boolean;
  matched: boolean;
  conditions: ConditionExplanation[];
}

/** A team's groups (rows with their `conditions`) in evaluation order: oldest first. */
export function rankGroups(rows: readonly Row[]): RankedGroup[] {
  return evaluationOrder(
    rows.map((row) => ({
      row,
      id: String(row.id),
      position: null,
      created_at: row.created_at as Date,
      stored: row.conditions as StoredGroupCondition[],
      conditions: (row.conditions as StoredGroupCondition[]).map(toEngineCondition),
    })),
  );
}

interface Target {
  target_type: string;
  target_id: string;
}

/** Whether a group applies to the alert: it has no targets, or one of them is the alert's. */
export function isTargeted(group: Row, routing: GroupRouting): boolean {
  const targets = (group.targets as Target[] | null) ?? [];
  if (!targets.length) return true;
  const routed: Record<string, readonly string[]> = {
    Service: routing.service_ids,
    Group: routing.group_ids,
    EscalationPolicy: routing.escalation_policy_ids,
    Functionality: routing.functionality_ids,
  };
  return targets.some((t) => routed[t.target_type]?.includes(t.target_id));
}

/**
 * The group's verdict: targeted, then its conditions (all or any, `condition_type`);
 * `matches_existing_alert` compares with `existing`, the alerts of this group only.
 * Throws EvaluationBudgetExceeded when `budget` runs out.
 */
export function judgeGroup(
  group: RankedGroup,
  alert: AlertInput,
  routing: GroupRouting,
  existing: readonly AlertInput[],
  budget: EvaluationBudget,
): GroupVerdict {
  const targeted = isTargeted(group.row, routing);
  if (!targeted) return { targeted, matched: false, conditions: [] };
  const result = evaluateConditions(
    group.conditions,
    group.row.condition_type as MatchMode,
    alert,
    { existing_alerts: [...existing] },
    budget,
  );
  return { targeted, matched: result.matched, conditions: result.conditions };
}
