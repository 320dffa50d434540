import { RE2JS } from 're2js';
import { charge, COSTS, EvaluationBudgetExceeded, REGEX_RUN_LIMIT_NS, type EvaluationBudget } from './evaluation-budget.js';

/**
 * Patterns of `matches_regex` come from API callers, so they run on RE2 (re2js, a pure
 * JavaScript port): no backtracking, so `(a+)+$` costs what any pattern costs. RE2 is
 * linear in the input, but its constant is the compiled program's size (a simulation
 * step may touch every instruction: `[a-x]{1000}` sixty times over took 55 s on
 * 64 KiB). So programs are bounded on write, a run whose worst case is too long is
 * not made, and the evaluation's budget bounds all runs together (evaluation-budget.ts).
 */

/** Longest pattern accepted on write. */
export const MAX_PATTERN_LENGTH = 256;
/** Largest compiled program accepted on write (instructions). */
export const MAX_PROGRAM_SIZE = 1_000;

// Only accepted patterns are kept (each at most MAX_PROGRAM_SIZE instructions), so the cache's memory is bounded.
const CACHE_SIZE = 200;
const cache = new Map<string, RE2JS>();

/** Why `pattern` cannot be used, or null when it compiles within the bounds. */
export function regexIssue(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (cache.has(pattern)) return null;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    // re2js reports "error parsing regexp: <what>: `<where>`"; the prefix says nothing.
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `is not a valid RE2 regular expression (${message})`;
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) return `is too complex: it compiles to ${re.programSize()} instructions, at most ${MAX_PROGRAM_SIZE} are allowed (use smaller repeat counts)`;
  remember(pattern, re);
  return null;
}

/**
 * Whether `pattern` (valid: see regexIssue) finds a match anywhere in `input`.
 * EvaluationBudgetExceeded when the run's worst case is over REGEX_RUN_LIMIT_NS or the
 * evaluation's budget is spent; otherwise the run is charged what it took.
 */
export function regexFinds(pattern: string, input: string, budget: EvaluationBudget): boolean {
  // A pattern stored under other bounds is judged again rather than trusted; such a pattern does not match.
  const re = regexIssue(pattern) === null ? cache.get(pattern) : undefined;
  if (!re) return false;
  const what = `a pattern of ${re.programSize()} instructions over ${input.length} characters`;
  if (budget.remaining <= 0 || COSTS.regexStep * re.programSize() * input.length > REGEX_RUN_LIMIT_NS) throw new EvaluationBudgetExceeded(what);
  const started = performance.now();
  // test() needs no submatches, so re2js runs its DFA where it can.
  const found = re.test(input);
  charge(budget, (performance.now() - started) * 1e6);
  return found;
}

function remember(pattern: string, re: RE2JS): void {
  // Insertion order makes the first key the oldest.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
}
