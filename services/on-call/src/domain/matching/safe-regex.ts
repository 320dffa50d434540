import { RE2JS } from 're2js';

/**
 * Patterns of `matches_regex` come from API callers, so they run on RE2 (re2js, a pure
 * JavaScript port): matching is linear in the input, and there are no backreferences or
 * lookarounds to make it otherwise. A pathological pattern such as `(a+)+$` costs the
 * same as any other. Inputs and patterns are bounded all the same, so one evaluation
 * costs at most a few milliseconds.
 */

/** Longest pattern accepted on write. */
export const MAX_PATTERN_LENGTH = 1_000;
/** Longest value a pattern is run against; a longer value does not match. */
export const MAX_REGEX_INPUT_LENGTH = 65_536;

const CACHE_SIZE = 500;
const cache = new Map<string, RE2JS>();

/** Why `pattern` cannot be used, or null when it compiles. */
export function regexIssue(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    compiled(pattern);
    return null;
  } catch (error) {
    // re2js reports "error parsing regexp: <what>: `<where>`"; the prefix says nothing.
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return `is not a valid RE2 regular expression (${message})`;
  }
}

/** Whether `pattern` finds a match anywhere in `input` (RE2 syntax, unanchored). */
export function regexFinds(pattern: string, input: string): boolean {
  if (input.length > MAX_REGEX_INPUT_LENGTH) return false;
  return compiled(pattern).matcher(input).find();
}

function compiled(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    // Insertion order makes the first key the oldest; patterns come from stored rules, so few.
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, re);
  }
  return re;
}
