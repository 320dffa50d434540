import { RE2JS } from 're2js';
import { COSTS, EvaluationBudgetExceeded, spend, type EvaluationBudget } from './evaluation-budget.js';
import { foldedRunes } from './regex-folding.js';

/**
 * Patterns of `matches_regex` come from API callers, so they run on RE2 (re2js, a pure
 * JavaScript port): no backtracking, so `(a+)+$` costs what any pattern costs. RE2 is
 * linear in the input, but its constant is the compiled program's size (a simulation
 * step may touch every instruction: `[a-x]{1000}` sixty times over took 55 s on
 * 64 KiB), and a compile itself is not free (Unicode classes, and case folding of
 * class ranges: regex-folding.ts). So programs and folding are bounded on write, and an evaluation pays for each pattern's
 * compile once and for each run its worst case, estimated from sizes
 * (evaluation-budget.ts), whether or not a compiled program is at hand.
 */

/** Longest pattern accepted on write. */
export const MAX_PATTERN_LENGTH = 256;
/** Largest compiled program accepted on write (instructions). */
export const MAX_PROGRAM_SIZE = 1_000;
/** Most characters a case-insensitive pattern's class ranges may fold (regex-folding.ts): one whole-Unicode range, ~5 ms to compile. */
export const MAX_FOLDED_RUNES = 131_072;

// Compiled patterns shared by every team, least recently used first out. Only accepted
// patterns are kept (each at most MAX_PROGRAM_SIZE instructions), so memory is bounded;
// a miss costs time, never correctness or another team's budget: every evaluation is
// charged its compiles whether they are cached or not.
const CACHE_SIZE = 200;
const cache = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS | string {
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    // re2js reports "error parsing regexp: <what>: `<where>`"; the prefix says nothing.
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `is not a valid RE2 regular expression (${message})`;
  }
  if (re.programSize() > MAX_PROGRAM_SIZE)
    return `is too complex: it compiles to ${re.programSize()} instructions, at most ${MAX_PROGRAM_SIZE} are allowed (use smaller repeat counts)`;
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
  return re;
}

/** Why `pattern` cannot be used, or null when it compiles within the bounds. */
export function regexIssue(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  // Judged before compiling: the compile is what would be slow.
  const folded = foldedRunes(pattern);
  if (folded > MAX_FOLDED_RUNES)
    return `is too costly to compile case-insensitively: its class ranges fold ${folded} characters, at most ${MAX_FOLDED_RUNES} (narrow the ranges or drop (?i))`;
  const re = compile(pattern);
  return typeof re === 'string' ? re : null;
}

/** The estimated cost of compiling `pattern` into `size` instructions. */
function compileCost(pattern: string, size: number): number {
  return (
    COSTS.compileBase + COSTS.compileChar * pattern.length + COSTS.compileInstruction * size + COSTS.compileFold * foldedRunes(pattern)
  );
}

/**
 * What compiling `pattern` costs an evaluation (ns; its worst case when it does not
 * compile): a write that stores many patterns for one evaluation judges their sum.
 */
export function patternCompileCost(pattern: string): number {
  // Out of bounds, it is not compiled at all (regexIssue refuses it).
  const re = pattern.length > MAX_PATTERN_LENGTH || foldedRunes(pattern) > MAX_FOLDED_RUNES ? null : compile(pattern);
  return compileCost(pattern, re && typeof re !== 'string' ? re.programSize() : MAX_PROGRAM_SIZE);
}

/** `pattern` compiled, paid for once per evaluation: its worst case before, its estimate after. */
function compiledFor(pattern: string, budget: EvaluationBudget): RE2JS | null {
  if (budget.patterns.has(pattern)) return budget.patterns.get(pattern)!;
  // A pattern stored under other bounds is judged again rather than trusted; such a pattern does not match.
  if (pattern.length > MAX_PATTERN_LENGTH || foldedRunes(pattern) > MAX_FOLDED_RUNES) {
    budget.patterns.set(pattern, null);
    return null;
  }
  const what = `compiling a pattern of ${pattern.length} characters`;
  // The program's size is known only after compiling: the budget must hold the largest first.
  if (compileCost(pattern, MAX_PROGRAM_SIZE) > budget.remaining) throw new EvaluationBudgetExceeded(what);
  const re = compile(pattern);
  const usable = typeof re === 'string' ? null : re;
  spend(budget, compileCost(pattern, usable?.programSize() ?? MAX_PROGRAM_SIZE), what);
  budget.patterns.set(pattern, usable);
  return usable;
}

/**
 * Whether `pattern` (valid: see regexIssue) finds a match anywhere in `input`, charged
 * to `budget` at its worst case before it runs; EvaluationBudgetExceeded when the budget
 * does not hold it.
 */
export function regexFinds(pattern: string, input: string, budget: EvaluationBudget): boolean {
  const re = compiledFor(pattern, budget);
  if (!re) return false;
  spend(
    budget,
    COSTS.item + COSTS.regexStep * re.programSize() * (input.length + 1),
    `a pattern of ${re.programSize()} instructions over ${input.length} characters`,
  );
  // test() needs no submatches, so re2js runs its DFA where it can.
  return re.test(input);
}
