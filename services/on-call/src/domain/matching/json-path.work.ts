import type { JsonPathQuery } from 'jsonpath-rfc9535/parser';

// The parser exports only the query's type; its parts are derived from it.
type Segment = JsonPathQuery['segments'][number];
type Selector = Extract<Segment['node'], { type: 'BracketedSelection' }>['selectors'][number];
type LogicalExpr = Extract<Selector, { type: 'FilterSelector' }>['value'];
type Comparable = Extract<LogicalExpr, { type: 'ComparisonExpr' }>['left'];
type FunctionExpr = Extract<Comparable, { type: 'FunctionExpr' }>;
type FunctionArgument = FunctionExpr['arguments'][number];
type FilterQuery = Extract<FunctionArgument, { type: 'FilterQuery' }>;

/**
 * Write-time rules for JSON Paths, judged on the parsed path, that keep a query's work
 * a known multiple of the payload's size. RFC 9535 alone does not: filters nest, and a
 * filter's query may itself descend, so `$..[?@..[?@..[?@..*]]]` costs the payload's
 * size to a power (34 characters took 7.5 s on a 253-byte payload), and `[*,*]` doubles
 * the nodes at each step. So:
 * - at most one descendant segment (`..`), and none inside filters;
 * - queries inside filters are singular (`@.a.b`, `@[0]`, `$.x`): one node at most,
 *   found by names and indices, so a filter tests each node in time of its own size;
 * - functions are length(), count() and value(), type-checked as RFC 9535 §2.4.3 has
 *   them (match() and search() would run the platform's backtracking RegExp);
 * - the product of the selectors' counts (duplicated nodes) is at most MAX_FANOUT,
 *   and the work factor (see PathWork) at most MAX_PATH_WORK.
 */

/** Most nodes a path may select per node of the payload (the product of its segments' selector counts). */
export const MAX_FANOUT = 16;
/** Largest work factor a path may have (PathWork: fanout × segments × (1 + filter tests)). */
export const MAX_PATH_WORK = 64;

/**
 * How much a path costs on a payload: `simple` paths (names and indices only) visit one
 * node a segment; any other visits at most `fanout × segments` times each node, plus
 * `tests` comparisons per visit, each of which may compare a subtree (as deep as the
 * payload nests).
 */
export interface PathWork {
  simple: boolean;
  fanout: number;
  /** Segments from the first that may select more than one node. */
  segments: number;
  /** Comparisons, existence tests and function calls in its filters. */
  tests: number;
}

type Segments = readonly (Segment | { type: 'SingularQuerySegment' })[];

function singular(segments: Segments): boolean {
  return segments.every(
    (s) =>
      s.type === 'SingularQuerySegment' ||
      (s.type === 'ChildSegment' &&
        (s.node.type === 'MemberNameShorthand' ||
          (s.node.type === 'BracketedSelection' &&
            s.node.selectors.length === 1 &&
            (s.node.selectors[0].type === 'NameSelector' || s.node.selectors[0].type === 'IndexSelector')))),
  );
}

const SINGULAR_ONLY = 'may use only singular queries inside a filter (@.a.b, @[0], $.x): no wildcard, descendant, slice or filter there';
const FUNCTIONS = 'length(), count() and value()';

function known(f: FunctionExpr): void {
  // match() and search() run the platform's backtracking RegExp inside the library, out of reach of the RE2 guard.
  if (!['length', 'count', 'value'].includes(f.name)) {
    throw new Error(`uses the function ${f.name}(); only ${FUNCTIONS} are allowed (use a matches_regex condition instead)`);
  }
}

/** Counts a filter's tests; throws the reason when the filter is not allowed. */
class FilterCheck {
  tests = 0;

  logical(e: LogicalExpr): void {
    switch (e.type) {
      case 'LogicalOrExpr':
      case 'LogicalAndExpr':
        this.logical(e.left);
        this.logical(e.right);
        return;
      case 'LogicalNotExpr':
        this.logical(e.expression);
        return;
      case 'ComparisonExpr':
        this.tests++;
        this.comparable(e.left);
        this.comparable(e.right);
        return;
      case 'TestExpr':
        if (e.expression.type === 'FunctionExpr') {
          known(e.expression);
          throw new Error(
            `uses ${e.expression.name}() as a test, but it gives a value (RFC 9535 §2.4.3): compare it, as in ${e.expression.name}(@.a) > 0`,
          );
        }
        this.tests++;
        this.query(e.expression);
    }
  }

  private comparable(c: Comparable): void {
    if (c.type === 'FunctionExpr') this.valueFunction(c);
  }

  private query(q: FilterQuery): void {
    if (!singular(q.value.segments)) throw new Error(SINGULAR_ONLY);
  }

  /** A function call where a value is expected (comparisons, length()'s argument). */
  private valueFunction(f: FunctionExpr): void {
    known(f);
    if (f.arguments.length !== 1) throw new Error(`calls ${f.name}() with ${f.arguments.length} arguments; it takes exactly one`);
    this.tests++;
    const arg: FunctionArgument = f.arguments[0];
    if (f.name === 'length') {
      // ValueType: a literal, a singular query, or a function giving a value.
      if (arg.type === 'FunctionExpr') this.valueFunction(arg);
      else if (arg.type === 'FilterQuery') this.query(arg);
      else if (arg.type !== 'Literal')
        throw new Error('calls length() on a test; it takes a value (a literal, a singular query or a function)');
    } else if (arg.type === 'FilterQuery') this.query(arg);
    else throw new Error(`calls ${f.name}() on something other than a query; it takes the nodes of a query (RFC 9535 §2.4.3)`);
  }
}

/** The work of a parsed path, or why it is not allowed. */
export function pathWork(ast: JsonPathQuery): PathWork | string {
  let fanout = 1;
  let segments = 0;
  let tests = 0;
  let descendants = 0;
  for (const [i, segment] of ast.segments.entries()) {
    if (segment.type === 'DescendantSegment') descendants++;
    if (segments === 0 && (segment.type === 'DescendantSegment' || !singular([segment]))) segments = ast.segments.length - i;
    if (segment.node.type !== 'BracketedSelection') continue;
    fanout *= segment.node.selectors.length;
    for (const selector of segment.node.selectors) {
      if (selector.type !== 'FilterSelector') continue;
      const check = new FilterCheck();
      try {
        check.logical(selector.value);
      } catch (error) {
        return (error as Error).message;
      }
      tests += check.tests;
    }
  }
  if (descendants > 1) return `has ${descendants} descendant segments (..); at most one is allowed`;
  if (fanout > MAX_FANOUT) return `selects each node up to ${fanout} times (its bracketed selectors multiplied); at most ${MAX_FANOUT}`;
  const work: PathWork = { simple: segments === 0, fanout, segments, tests };
  const factor = fanout * Math.max(segments, 1) * (1 + tests);
  if (factor > MAX_PATH_WORK)
    return `is too much work: ${fanout} × ${segments} segments × ${1 + tests} tests per node, at most ${MAX_PATH_WORK}; simplify it`;
  return work;
}
