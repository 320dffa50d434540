/** What a preview's variables may be: the bounds keep the check and the render cheap. */
/** `depth`: objects and arrays within one another, the variables object included. */
export const VARIABLE_LIMITS = { depth: 16, bytes: 64 * 1024 } as const;

/**
 * Why `variables` are out of bounds, or undefined. Walks iteratively, so a document
 * nested thousands deep is refused instead of exhausting the stack (JSON.stringify
 * would recurse); sizes are counted as JSON would spell them, roughly.
 */
export function variablesProblem(variables: unknown): string | undefined {
  const pending: [unknown, number][] = [[variables, 0]];
  let bytes = 0;
  while (pending.length) {
    const [value, depth] = pending.pop()!;
    if (value !== null && typeof value === 'object') {
      // The variables object itself is the first level.
      if (depth >= VARIABLE_LIMITS.depth) return `must nest at most ${VARIABLE_LIMITS.depth} levels deep`;
      const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
      for (const [key, v] of entries) {
        bytes += key.length + 4;
        pending.push([v, depth + 1]);
      }
    } else {
      bytes += String(value).length + 2;
    }
    if (bytes > VARIABLE_LIMITS.bytes) return `must be at most ${VARIABLE_LIMITS.bytes} bytes of JSON`;
  }
  return undefined;
}
