import type { Row } from '@firewatch/resource-kit';
import { EvaluationBudgetExceeded, selectRule, type AlertInput } from '../matching/index.js';
import { modeOf, ranked } from '../alerts/alert-retrigger-rule-evaluate.action.js';

/** When an acknowledged alert is triggered again, and which rule said so. */
export interface RetriggerTimer {
  at: Date;
  rule_id: string;
}

/** A stored alert as the rule engine reads it (the evaluate endpoint's `alert`). */
export function alertInputOf(alert: Row): AlertInput {
  return {
    summary: (alert.summary as string | null) ?? null,
    description: (alert.description as string | null) ?? null,
    external_url: (alert.external_url as string | null) ?? null,
    urgency_id: (alert.alert_urgency_id as string | null) ?? null,
    source_id: (alert.alert_source_id as string | null) ?? null,
    source: (alert.source as string | null) ?? null,
    service_ids: (alert.service_ids as string[] | null) ?? [],
    group_ids: (alert.group_ids as string[] | null) ?? [],
    payload: alert.data ?? undefined,
  };
}

/**
 * The re-trigger timer of an alert acknowledged at `acknowledgedAt`: the team's rules
 * (rows with their conditions) tried as `POST /v1/alert_retrigger_rules/evaluate` tries
 * them; the first match's `timeout_minutes` after the acknowledgment, or null when no
 * rule matches, the match says never, or the alert costs more than the engine's budget
 * (an acknowledgment is never refused for its alert's size).
 */
export function retriggerTimer(rules: readonly Row[], alert: Row, acknowledgedAt: Date): RetriggerTimer | null {
  let rule;
  try {
    rule = selectRule(rules.map(ranked), alertInputOf(alert), modeOf).rule;
  } catch (error) {
    if (error instanceof EvaluationBudgetExceeded) return null;
    throw error;
  }
  const minutes = rule ? (rule.row.timeout_minutes as number | null) : null;
  if (!rule || minutes === null) return null;
  return { at: new Date(acknowledgedAt.getTime() + minutes * 60_000), rule_id: rule.id };
}
