import { RE2JS } from 're2js';

/**
 * Patterns of `matches_regex` come from API callers, so they run on RE2 (re2js, a pure
 * JavaScript port): no backtracking, so `(a+)+$` costs what any pattern costs. RE2 is
 * linear in the input, but its constant is the compiled program's size (a simulation
 * step may touch every instruction): `[a-x]{1000}` sixty times over takes about a
 * minute on 64 KiB. So the program size is bounded on write, and each run and each
 * evaluation have a budget of program size × input length ("units", 13 to 20 ns
 * each at worst, measured); a run that would exceed it is not made, and does not match.
 */

/** Longest pattern accepted on write. */
export const MAX_PATTERN_LENGTH = 256;
/** Largest compiled program accepted on write (instructions). */
export const MAX_PROGRAM_SIZE = 1_000;
/** Longest value a pattern is ever run against; a longer value does not match. */
export const MAX_REGEX_INPUT_LENGTH = 65_536;
/** Most units one run may cost (about 20 ms at worst; `(a+)+$` on 50 001 characters costs 400 000). */
export const RUN_BUDGET = 1_000_000;
/** Most units all the runs of one evaluation may cost together (about 80 ms at worst). */
export const EVALUATION_BUDGET = 4_000_000;

/** What is left to spend in one evaluation, and how many runs were not made for want of it. */
export interface RegexBudget {
  units: number;
  skipped: number;
}

/** A fresh budget for one evaluation. */
export function regexBudget(units = EVALUATION_BUDGET): RegexBudget {
  return { units, skipped: 0 };
}

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
 * Whether `pattern` (valid: see regexIssue) finds a match anywhere in `input`, spending
 * from `budget`; false, counted in `budget.skipped`, when the run would cost too much.
 */
export function regexFinds(pattern: string, input: string, budget: RegexBudget): boolean {
  // A pattern stored under other bounds is judged again rather than trusted.
  const re = regexIssue(pattern) === null ? cache.get(pattern) : undefined;
  const cost = (re?.programSize() ?? 0) * Math.max(input.length, 1);
  if (!re || input.length > MAX_REGEX_INPUT_LENGTH || cost > RUN_BUDGET || cost > budget.units) {
    budget.skipped += 1;
    return false;
  }
  budget.units -= cost;
  // test() needs no submatches, so re2js runs its DFA where it can: far below the bound in practice.
  return re.test(input);
}

function remember(pattern: string, re: RE2JS): RE2JS {
  // Insertion order makes the first key the oldest.
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
  return re;
}
