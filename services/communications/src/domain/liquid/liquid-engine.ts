import { Liquid, Tag, type Template } from 'liquidjs';

/**
 * Bounds of one render. liquidjs checks them cooperatively (docs: "DoS prevention"):
 * time before each template node (so each loop iteration), and its accounted
 * allocations (ranges, string and array filters, date padding). Output is checked after.
 */
export const LIQUID_LIMITS = {
  /** Characters parsed per template (a field is at most 100 000 characters anyway). */
  parse: 200_000,
  /** Milliseconds per render. */
  renderMs: 200,
  /** Units liquidjs accounts (a range of n costs n). */
  memory: 1_000_000,
  /** Characters one rendered field may have. */
  output: 200_000,
} as const;

/** Tags that read other templates; here there are none to read, and no file system. */
const FILE_TAGS = ['include', 'render', 'layout'];

class RefusedTag extends Tag {
  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    throw new Error(`the ${args[0].name} tag is not available: templates cannot read other templates or files`);
  }
  *render(): Generator<unknown, void> {}
}

/** A sandboxed Liquid engine: no file system, no partials, known filters only, own properties only, bounded. */
function createEngine(): Liquid {
  const engine = new Liquid({
    // An empty in-memory store: nothing on disk can be named.
    templates: {},
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    parseLimit: LIQUID_LIMITS.parse,
    renderLimit: LIQUID_LIMITS.renderMs,
    memoryLimit: LIQUID_LIMITS.memory,
    cache: false,
  });
  for (const name of FILE_TAGS) engine.registerTag(name, RefusedTag);
  return engine;
}

const engine = createEngine();

/** Why a template does not parse, or undefined when it does. */
export function liquidSyntaxError(source: string): string | undefined {
  try {
    engine.parse(source);
    return undefined;
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}

/** Thrown when a template fails while rendering (a limit reached, a bad filter argument). */
export class LiquidRenderError extends Error {}

/** Renders `source` with `variables`, inside the limits. */
export async function renderLiquid(source: string, variables: Record<string, unknown>): Promise<string> {
  let out: string;
  try {
    const templates: Template[] = engine.parse(source);
    out = String(await engine.render(templates, variables));
  } catch (err) {
    throw new LiquidRenderError((err as Error).message.split('\n')[0]);
  }
  if (out.length > LIQUID_LIMITS.output) throw new LiquidRenderError(`the rendered text is longer than ${LIQUID_LIMITS.output} characters`);
  return out;
}
