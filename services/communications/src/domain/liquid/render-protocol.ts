/**
 * Bounds of one render, applied inside the Liquid worker. liquidjs checks `renderMs` and
 * `memory` cooperatively (before each template node; its accounted allocations: ranges,
 * string and array filters). They are safeguards, not isolation: output and
 * `{% capture %}` are not accounted, so the worker's heap cap and the pool's wall-clock
 * budget (render-pool.ts) are what finally bound a render.
 */
export const LIQUID_LIMITS = {
  /** Characters parsed per template (a field is at most 100 000 characters anyway). */
  parse: 200_000,
  /**
   * Milliseconds per render of one field: stops a long loop with a message naming the
   * field, before the pool's 500 ms budget for the whole preview ends the worker.
   */
  renderMs: 300,
  /** Units liquidjs accounts (a range of n costs n). */
  memory: 1_000_000,
  /** Characters one rendered field may have. */
  output: 200_000,
  /** Characters a whole preview's rendered fields may have together. */
  totalOutput: 1_000_000,
} as const;

/** The limits' shape: any numbers (tests and callers pass their own), the defaults above. */
export type LiquidLimits = { readonly [K in keyof typeof LIQUID_LIMITS]: number };

/** What the pool asks a worker: parse sources (write time), or render them with variables (previews). */
export type WorkerJob =
  { kind: 'parse'; sources: string[] } | { kind: 'render'; sources: (string | null)[]; variables: Record<string, unknown> };

/** A parse job's answer: why each source does not parse, by index (null: it parses). */
export interface ParseReply {
  errors: (string | null)[];
}

/** A render job's answer: the outputs by index (null stays null), or the first failure. */
export type RenderReply = { ok: true; outputs: (string | null)[] } | { ok: false; index: number; message: string };

/** Posted once by a worker when its engine is built, before any job. */
export const READY = 'ready';
