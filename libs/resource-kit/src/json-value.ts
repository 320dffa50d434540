/** A stored value as JSON shows it: a Date as its ISO string, anything else unchanged. */
export function jsonValue(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}
