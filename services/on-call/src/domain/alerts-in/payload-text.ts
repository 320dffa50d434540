/**
 * A payload's text as PostgreSQL stores it: NUL (which neither `text` nor `jsonb` holds)
 * and lone UTF-16 surrogates (which `jsonb` refuses as escapes) become U+FFFD, in keys and
 * values alike. A monitoring tool's payload is valid JSON with these in it, and refusing
 * it would drop the alert over a character; the replacement keeps the rest readable.
 * The payload's depth is bounded before this runs (payload-mapping.ts), so recursion is.
 */
export function storableText(value: unknown): unknown {
  if (typeof value === 'string') return storable(value);
  if (Array.isArray(value)) return value.map(storableText);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storableText(v)]));
}

/** NUL, a high surrogate without its low one, a low one without its high one. */
// eslint-disable-next-line no-control-regex -- NUL is the very character to find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storable(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}
