/**
 * The Liquid worker: parses and renders templates off the service's event loop, in a
 * thread whose heap is capped (render-pool.ts). liquidjs' own bounds (time before each
 * node, accounted memory of ranges and filters) do not count text written out or
 * collected by `{% capture %}`, so every render and capture here writes into a
 * BoundedEmitter, which refuses past `limits.output` characters: no string the template
 * builds can outgrow that, or what liquidjs accounts. This matters beyond the heap cap:
 * V8 allocates one huge string at once and aborts the whole process, not only the
 * worker, when that single allocation is over the heap limit (measured: a 1 GB capture
 * flattened by `contains` under a 64 MB worker heap aborted Node). The pool's
 * wall-clock budget ends the thread when a render runs long anyway.
 *
 * Self-contained on purpose (liquidjs and Node only, types erased): the pool starts it
 * from the compiled `.js` in production and from this `.ts` under the tests, which Node
 * runs by stripping its types, so it must not import the service's own modules.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CaptureTag, Context, Liquid, Tag, toPromise, toValue, type Template } from 'liquidjs';
import type { LiquidLimits, ParseReply, RenderReply, WorkerJob } from './render-protocol.js';

/** Tags that read other templates; here there are none to read, and no file system. */
const FILE_TAGS = ['include', 'render', 'layout'];

class RefusedTag extends Tag {
  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    throw new Error(`the ${args[0].name} tag is not available: templates cannot read other templates or files`);
  }
  *render(): Generator<unknown, void> {}
}

const limits = (workerData as { limits: LiquidLimits }).limits;

/** liquidjs' emitter, refusing to grow past `limits.output` characters (its stringify, spelled out). */
class BoundedEmitter {
  buffer = '';
  write(html: unknown): void {
    const text = stringify(html);
    if (this.buffer.length + text.length > limits.output) throw new Error(`the rendered text is longer than ${limits.output} characters`);
    this.buffer += text;
  }
}

function stringify(value: unknown): string {
  const v = toValue(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringify).join('');
  return String(v);
}

/** `{% capture %}` into a BoundedEmitter (liquidjs' own collects without any bound). */
class BoundedCapture extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, string> {
    const emitter = new BoundedEmitter();
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    ctx.bottom()[this.variable] = emitter.buffer;
  }
}

/** A sandboxed engine: no file system, no partials, known filters only, own properties only, bounded. */
const engine = new Liquid({
  // An empty in-memory store: nothing on disk can be named.
  templates: {},
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  parseLimit: limits.parse,
  renderLimit: limits.renderMs,
  memoryLimit: limits.memory,
  cache: false,
});
for (const name of FILE_TAGS) engine.registerTag(name, RefusedTag);
engine.registerTag('capture', BoundedCapture);

/** One template rendered as `engine.render` would, into a BoundedEmitter. */
async function renderOne(templates: Template[], variables: Record<string, unknown>): Promise<string> {
  const emitter = new BoundedEmitter();
  await toPromise(engine.renderer.renderTemplates(templates, new Context(variables, engine.options), emitter));
  return emitter.buffer;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/** Why each source does not parse (null when it does). */
function parse(sources: readonly string[]): ParseReply {
  const errors = sources.map((source) => {
    try {
      engine.parse(source);
      return null;
    } catch (err) {
      return firstLine(err);
    }
  });
  return { errors };
}

/** Renders each source in turn (null stays null); the first failure ends the job, naming its index. */
async function render(sources: readonly (string | null)[], variables: Record<string, unknown>): Promise<RenderReply> {
  const outputs: (string | null)[] = [];
  let total = 0;
  for (const [index, source] of sources.entries()) {
    if (source === null) {
      outputs.push(null);
      continue;
    }
    let out: string;
    try {
      out = await renderOne(engine.parse(source), variables);
    } catch (err) {
      return { ok: false, index, message: firstLine(err) };
    }
    total += out.length;
    if (total > limits.totalOutput)
      return { ok: false, index, message: `the preview's rendered text is longer than ${limits.totalOutput} characters in all` };
    outputs.push(out);
  }
  return { ok: true, outputs };
}

parentPort!.on('message', async (job: WorkerJob) => {
  parentPort!.postMessage(job.kind === 'parse' ? parse(job.sources) : await render(job.sources, job.variables));
});
// READY of render-protocol.ts, spelled out: this module imports no values of the service.
parentPort!.postMessage('ready');
