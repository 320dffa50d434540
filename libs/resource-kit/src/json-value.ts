import { isoTimestamp } from './iso-timestamp.js';

/** A stored value as JSON shows it: a Date as its ISO string ({@link isoTimestamp}), anything else unchanged. */
export function jsonValue(v: unknown): unknown {
  return v instanceof Date ? isoTimestamp(v) : v;
}
