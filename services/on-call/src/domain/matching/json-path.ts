import { query, type JsonValue } from 'jsonpath-rfc9535';
import parse from 'jsonpath-rfc9535/parser';
import { pathWork, type PathWork } from './json-path.work.js';

/**
 * Payload conditions name their value with a JSON Path (RFC 9535), evaluated by
 * jsonpath-rfc9535: a parser, not `eval`, and the whole compliance suite passes. Paths
 * are checked on write (on the parsed path, json-path.work.ts), so a stored path always
 * parses and its work on a payload is bounded by a known factor of the payload's size.
 */

/** Longest JSON Path accepted on write. */
export const MAX_JSON_PATH_LENGTH = 512;

/** The work of `path`, or why it cannot be used. */
function judged(path: string): PathWork | string {
  if (path.length > MAX_JSON_PATH_LENGTH) return `is longer than ${MAX_JSON_PATH_LENGTH} characters`;
  try {
    return pathWork(parse(path));
  } catch (error) {
    return `is not a valid JSON Path (RFC 9535): ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Why `path` cannot be used, or null when it is a usable JSON Path. */
export function jsonPathIssue(path: string): string | null {
  const work = judged(path);
  return typeof work === 'string' ? work : null;
}

/** The nodes `path` selects in `payload`; none when the payload is absent. */
export function selectNodes(payload: unknown, path: string): unknown[] {
  if (payload === undefined) return [];
  const walk = stepsOf(path);
  return walk ? follow(payload, walk) : query(payload as JsonValue, path);
}

/** A path of member names and indices only (`$.labels.host`, `$.links[0]`), as its steps. */
type Steps = readonly (string | number)[];

// The library parses a path on every query (about 15 µs): a name-and-index path, the
// common one in templates and keys, is parsed once and walked here, with RFC 9535's
// meaning: a name selects an object's member, an index an array's item (negative from
// its end), anything else nothing.
const stepsCache = new Map<string, Steps | null>();

function stepsOf(path: string): Steps | null {
  let walk = stepsCache.get(path);
  if (walk === undefined) {
    walk = parsedSteps(path);
    if (stepsCache.size >= MAX_SHAPES) stepsCache.delete(stepsCache.keys().next().value as string);
    stepsCache.set(path, walk);
  }
  return walk;
}

function parsedSteps(path: string): Steps | null {
  if (path.length > MAX_JSON_PATH_LENGTH) return null;
  let ast;
  try {
    ast = parse(path);
  } catch {
    return null; // the library's own query says why
  }
  const walk: (string | number)[] = [];
  for (const segment of ast.segments) {
    if (segment.type !== 'ChildSegment') return null;
    if (segment.node.type === 'MemberNameShorthand') walk.push(segment.node.value);
    else if (segment.node.type !== 'BracketedSelection' || segment.node.selectors.length !== 1) return null;
    else {
      const [selector] = segment.node.selectors;
      if (selector.type === 'NameSelector' || selector.type === 'IndexSelector') walk.push(selector.value);
      else return null;
    }
  }
  return walk;
}

function follow(payload: unknown, walk: Steps): unknown[] {
  let node = payload;
  for (const step of walk) {
    if (typeof step === 'number') {
      if (!Array.isArray(node)) return [];
      const i = step < 0 ? node.length + step : step;
      if (i < 0 || i >= node.length) return [];
      node = node[i];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, step)) return [];
      node = (node as Record<string, unknown>)[step];
    }
  }
  return [node];
}

// Paths come from stored conditions; an LRU bound keeps a flood of distinct ones from growing it.
const shapes = new Map<string, PathWork | string>();
const MAX_SHAPES = 1_000;

/**
 * What `path` costs on a payload (json-path.work.ts), or null for a path that does not
 * pass the write-time checks (stored under other rules): such a path is not queried.
 */
export function pathShape(path: string): PathWork | null {
  let shape = shapes.get(path);
  if (shape === undefined) {
    shape = judged(path);
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
  } else shapes.delete(path);
  shapes.set(path, shape);
  return typeof shape === 'string' ? null : shape;
}
