import type { Row } from '@firewatch/resource-kit';
import { EvaluationBudgetExceeded, selectRule } from '../matching/index.js';
import { alertInputOf } from './alert-input.js';
import { modeOf, ranked } from '../alerts/alert-retrigger-rule-evaluate.action.js';

/** When an acknowledged alert is triggered again, and which rule said so. */
export interface RetriggerTimer {
  at: Date;
  rule_id: string;
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
