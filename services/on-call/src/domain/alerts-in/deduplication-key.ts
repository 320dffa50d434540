import { RE2JS } from 're2js';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { pathText } from './alert-template.js';

/** Longest deduplication key kept; a longer value is cut (keys are compared, not read). */
export const MAX_DEDUPLICATION_KEY = 512;
/** The part of a value a key regexp reads: RE2 is linear, so this bounds its work. */
const MAX_REGEXP_INPUT = 4096;

/** How a source derives an alert's key from its payload (its `deduplication_key_*` attributes). */
export interface KeyRule {
  path: string;
  regexp: string | null;
}

/**
 * The deduplication key of `payload` under `rule`: the value at the JSON Path, narrowed
 * by the regexp (its first capture group, else its whole match) when one is set; null
 * when the path selects nothing or the regexp does not match. The regexp is RE2 (checked
 * on write with the matching engine's bounds), run on at most 4 KiB.
 */
export function deduplicationKey(payload: unknown, rule: KeyRule, budget?: EvaluationBudget): string | null {
  const value = pathText(payload, rule.path, budget);
  if (value === null) return null;
  if (!rule.regexp) return value.slice(0, MAX_DEDUPLICATION_KEY) || null;
  const matcher = RE2JS.compile(rule.regexp).matcher(value.slice(0, MAX_REGEXP_INPUT));
  if (!matcher.find()) return null;
  const key = matcher.groupCount() > 0 && matcher.group(1) !== null ? matcher.group(1) : matcher.group(0);
  return key ? key.slice(0, MAX_DEDUPLICATION_KEY) : null;
}
