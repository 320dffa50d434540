/**
 * How many characters compiling a pattern case-insensitively walks one by one. re2js
 * folds an explicit class range (`[a-z]`, `[\x{100}-\x{10FFFF}]`) rune by rune between
 * the first and last foldable characters (U+0041..U+1E943), so `(?i)[\x{100}-\x{10FFFF}]`
 * alone costs ~5 ms to compile, and eight of them in one pattern 30 ms: compile time that
 * the pattern's length or program size does not show. This reads the pattern's text
 * conservatively: a range whose ends it cannot read counts as the whole foldable span.
 */

const MIN_FOLD = 0x41;
const MAX_FOLD = 0x1e943;
const WHOLE = MAX_FOLD - MIN_FOLD + 1;

/** Whether `pattern` may turn on case folding anywhere (a flag group with `i`). */
function folds(pattern: string): boolean {
  return /\(\?[a-zA-Z-]*i/.test(pattern);
}

/** The code point of a class item at `i` and where it ends, or null when it is not a single character. */
function item(pattern: string, i: number): [number, number] | null {
  if (pattern[i] !== '\\') {
    const cp = pattern.codePointAt(i);
    return cp === undefined ? null : [cp, i + (cp > 0xffff ? 2 : 1)];
  }
  const hex = /^\\x(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{2}))/.exec(pattern.slice(i));
  if (hex) return [parseInt(hex[1] ?? hex[2], 16), i + hex[0].length];
  // An escaped punctuation character is itself; other escapes (classes, octal) are not read.
  const next = pattern[i + 1];
  return next !== undefined && /[^\w\s]/.test(next) ? [next.codePointAt(0)!, i + 2] : null;
}

/** The foldable characters a range from `lo` to `hi` covers, unless it covers them all (which re2js keeps as is). */
function span(lo: number, hi: number): number {
  if (lo <= MIN_FOLD && hi >= MAX_FOLD) return 0;
  return Math.max(0, Math.min(hi, MAX_FOLD) - Math.max(lo, MIN_FOLD) + 1);
}

/** An upper bound of the characters re2js folds one by one compiling `pattern`; 0 when it never folds. */
export function foldedRunes(pattern: string): number {
  if (!folds(pattern)) return 0;
  let total = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    if (!inClass) {
      if (c === '\\') i += 2;
      else {
        if (c === '[') inClass = true;
        i++;
      }
      continue;
    }
    if (pattern.startsWith('[:', i)) {
      // A POSIX class ([:alpha:]) is a table, not a range.
      const close = pattern.indexOf(':]', i + 2);
      i = close < 0 ? pattern.length : close + 2;
      continue;
    }
    if (c === ']') {
      inClass = false;
      i++;
      continue;
    }
    if (c === '-') {
      i++;
      continue;
    }
    const lo = item(pattern, i);
    const end = lo ? lo[1] : i + 2;
    if (pattern[end] === '-' && pattern[end + 1] !== undefined && pattern[end + 1] !== ']') {
      const hi = item(pattern, end + 1);
      total += lo && hi ? span(lo[0], hi[0]) : WHOLE;
      i = hi ? hi[1] : end + 3;
    } else i = end;
  }
  return total;
}
