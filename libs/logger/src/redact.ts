const SENSITIVE_KEY = /(authorization|password|passwd|secret|token|api[_-]?key|cookie|credential|private[_-]?key)/i;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const MAX_DEPTH = 6;

/**
 * Returns a copy of `value` with credential-like fields replaced by `[REDACTED]`
 * and bearer/basic credentials masked inside strings. Logs are shipped to places
 * with wider access than the database, so nothing secret may reach them.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(BEARER, '$1 [REDACTED]');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (value instanceof Error) {
    return { name: value.name, message: redact(value.message), stack: value.stack };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) && v !== null && v !== undefined ? '[REDACTED]' : redact(v, depth + 1);
  }
  return out;
}
