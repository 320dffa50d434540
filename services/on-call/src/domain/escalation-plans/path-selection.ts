import type { Row } from '@firewatch/resource-kit';
import { EvaluationBudgetExceeded, evaluationBudget } from '../matching/index.js';
import { judgeRules, type PathRule } from './path-rules.js';
import { withinTimeRestrictions, type BusinessHours, type TimeRestriction } from './time-windows.js';

/** A path as selection reads it (an `escalation_paths` row). */
export interface PathRecord {
  id: string;
  name: string;
  is_default: boolean;
  path_type: string;
  position: number;
  match_mode: string;
  rules: readonly PathRule[];
  time_restriction_time_zone: string | null;
  time_restrictions: readonly TimeRestriction[];
}

/**
 * The path an alert follows at `at`: paths by position, the first that is not the
 * default, not a deferral path, whose rules match per its match mode and whose time
 * restrictions hold in its zone; else the default path (null when the policy has none).
 * `reason` says which rules decided. All rules of the policy share one evaluation
 * budget of the matching engine: a payload too costly to judge matches no further
 * rule, and the alert falls to the default path, never an error (paging goes on).
 */
export function selectPath<P extends PathRecord>(
  paths: readonly P[],
  alert: Row,
  hours: BusinessHours | null,
  at: Date,
): { path: P; reason: string } | null {
  const budget = evaluationBudget();
  const passed: string[] = [];
  const ordered = [...paths].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
  for (const path of ordered) {
    if (path.is_default || path.path_type === 'deferral') continue;
    const time = withinTimeRestrictions(path.time_restrictions, path.time_restriction_time_zone, at);
    let rules: { matched: boolean; why: string[] };
    try {
      rules = judgeRules(path.rules, path.match_mode, alert, hours, at, budget);
    } catch (err) {
      if (!(err instanceof EvaluationBudgetExceeded)) throw err;
      passed.push(`"${path.name}": the alert is too costly to judge against its rules (${err.what})`);
      break;
    }
    if (rules.matched && time.holds)
      return { path, reason: `path "${path.name}" (position ${path.position}): ${path.match_mode}: ${rules.why.join('; ')}; ${time.why}` };
    passed.push(`"${path.name}": ${rules.matched ? time.why : `rules not matched (${rules.why.join('; ')})`}`);
  }
  const fallback = ordered.find((p) => p.is_default);
  if (!fallback) return null;
  return { path: fallback, reason: passed.length ? `default: no other path matched (${passed.join(' | ')})` : 'default' };
}
