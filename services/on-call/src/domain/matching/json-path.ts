import { query, type JsonValue } from 'jsonpath-rfc9535';
import parse from 'jsonpath-rfc9535/parser';

/**
 * Payload conditions name their value with a JSON Path (RFC 9535), evaluated by
 * jsonpath-rfc9535: a parser, not `eval`, and the whole compliance suite passes. Paths
 * are checked on write, so a stored path always parses.
 */

/** Longest JSON Path accepted on write. */
export const MAX_JSON_PATH_LENGTH = 512;

/**
 * RFC 9535's match() and search() run their pattern on the platform's backtracking
 * RegExp inside the library, out of reach of the RE2 guard; length, count and value
 * cannot be made slow by their argument.
 */
const SAFE_FUNCTIONS = new Set(['length', 'count', 'value']);

/** Why `path` cannot be used, or null when it is a usable JSON Path. */
export function jsonPathIssue(path: string): string | null {
  if (path.length > MAX_JSON_PATH_LENGTH) return `is longer than ${MAX_JSON_PATH_LENGTH} characters`;
  let ast: unknown;
  try {
    ast = parse(path);
    // Function arguments are type-checked when they run: one dry run finds an ill-typed call.
    query({}, path);
  } catch (error) {
    return `is not a valid JSON Path (RFC 9535): ${error instanceof Error ? error.message : String(error)}`;
  }
  const unsafe = functionNames(ast).find((name) => !SAFE_FUNCTIONS.has(name));
  return unsafe === undefined ? null : `uses the function ${unsafe}(); only ${[...SAFE_FUNCTIONS].join('(), ')}() are allowed (use a matches_regex condition instead)`;
}

/** The nodes `path` selects in `payload`; none when the payload is absent. */
export function selectNodes(payload: unknown, path: string): unknown[] {
  if (payload === undefined) return [];
  return query(payload as JsonValue, path);
}

const simplicity = new Map<string, boolean>();

/**
 * Whether `path` names one node by member names and indices only (`$.a.b[0]`), so a
 * query costs next to nothing whatever the payload's size; wildcards, descendants,
 * slices and filters may visit all of it. A path that does not parse is not simple.
 */
export function isSimplePath(path: string): boolean {
  let simple = simplicity.get(path);
  if (simple === undefined) {
    try {
      simple = parse(path).segments.every((s) => s.type === 'ChildSegment' && (s.node.type === 'MemberNameShorthand'
        || (s.node.type === 'BracketedSelection' && s.node.selectors.every((x) => x.type === 'NameSelector' || x.type === 'IndexSelector'))));
    } catch {
      simple = false;
    }
    // Paths come from stored conditions; a bound keeps a flood of distinct ones from growing it.
    if (simplicity.size >= 1_000) simplicity.clear();
    simplicity.set(path, simple);
  }
  return simple;
}

function functionNames(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) functionNames(item, out);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (record.type === 'FunctionExpr' && typeof record.name === 'string') out.push(record.name);
    for (const value of Object.values(record)) functionNames(value, out);
  }
  return out;
}
