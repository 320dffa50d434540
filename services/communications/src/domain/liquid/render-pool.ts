import { Worker } from 'node:worker_threads';
import { ServiceUnavailableError } from '@firewatch/errors';
import { BusyError, createConcurrencyLimit } from '@firewatch/concurrency';
import { LIQUID_LIMITS, type LiquidLimits, READY, type ParseReply, type RenderReply, type WorkerJob } from './render-protocol.js';

/** How the Liquid workers are bounded (docs/communications.md, "The sandbox"). */
export const POOL_LIMITS = {
  /** Worker threads (the service's machine has two cores; one stays for the event loop). */
  workers: 2,
  /**
   * Jobs that may wait for a worker, and for how long, before a 503. Small on purpose: a
   * preview runs in its request's transaction (the kit's actions do), so a job, running
   * or waiting, holds one of the service's 10 pooled connections; 2 running and 2
   * waiting leave the other 6 to everything else.
   */
  queue: 2,
  waitMs: 1_000,
  /** Wall-clock budget of one preview's renders; past it the worker is ended. */
  renderBudgetMs: 500,
  /** Of one write's parse checks (parsing is linear in the ≤ 1 MB a template holds). */
  parseBudgetMs: 2_000,
  /** A worker's V8 heap, old and young generations, in MB; past it the worker is ended. */
  heapMb: 64,
  youngMb: 8,
  /** How long a new worker may take to start before its job counts as failed. */
  startMs: 10_000,
} as const;

/** A job ended because it went past a bound of the pool: its worker was ended, the service is fine. */
export class LiquidLimitError extends Error {
  constructor(
    readonly limit: 'time' | 'memory' | 'crash',
    detail: string,
  ) {
    super(detail);
  }
}

/** Parses and renders Liquid in worker threads, bounded in time, heap and concurrency. */
export interface LiquidPool {
  /** Why each source does not parse (null: it parses). */
  parse(sources: string[]): Promise<ParseReply>;
  /** Each source rendered with `variables` (null stays null), or the first failure by index. */
  render(sources: (string | null)[], variables: Record<string, unknown>): Promise<RenderReply>;
  close(): Promise<void>;
}

// Production runs the compiled .js; the tests run this module from its .ts source, and the
// worker from its own, which Node runs by stripping types (render-worker.ts says why it can).
const WORKER_URL = new URL(`./render-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

interface Thread {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * A small pool of Liquid workers. Each job gets one worker for itself; a job past its
 * wall-clock budget, or whose worker runs out of heap, fails with a LiquidLimitError and
 * the worker is replaced. More jobs than the queue holds, or waiting longer than
 * `waitMs`, are a 503 `liquid_busy` with `Retry-After: 1`. `liquidLimits` go to the
 * workers' engines (tests widen one to reach another).
 */
/** The pool's limits' shape: any numbers, the defaults above. */
export type PoolLimits = { readonly [K in keyof typeof POOL_LIMITS]: number };

export function createLiquidPool(limits: PoolLimits = POOL_LIMITS, liquidLimits: LiquidLimits = LIQUID_LIMITS): LiquidPool {
  const slots = createConcurrencyLimit({ concurrency: limits.workers, queue: limits.queue, waitMs: limits.waitMs });
  const idle: Thread[] = [];
  const all = new Set<Thread>();

  function spawn(): Thread {
    const worker = new Worker(WORKER_URL, {
      workerData: { limits: liquidLimits },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: limits.youngMb },
    });
    // Never keeps the process alive, and an idle worker's failure must not be an unhandled 'error'.
    worker.unref();
    worker.on('error', () => {});
    // A worker that cannot start is the service's fault, not the template's: a plain Error (500).
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the Liquid worker did not start in time')), limits.startMs);
      worker.once('message', (m) => {
        clearTimeout(timer);
        if (m === READY) resolve();
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('the Liquid worker stopped while starting'));
      });
    });
    ready.catch(() => {});
    const thread = { worker, ready };
    all.add(thread);
    worker.once('exit', () => {
      all.delete(thread);
      const i = idle.indexOf(thread);
      if (i >= 0) idle.splice(i, 1);
    });
    return thread;
  }

  /** Runs one job on a worker of its own; a worker that misbehaved is ended and never reused. */
  async function onWorker<R>(job: WorkerJob, budgetMs: number): Promise<R> {
    const thread = idle.pop() ?? spawn();
    await thread.ready;
    return new Promise<R>((resolve, reject) => {
      const { worker } = thread;
      let settled = false;
      const settle = (reuse: boolean, outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (reuse) idle.push(thread);
        else void worker.terminate();
        outcome();
      };
      const onMessage = (reply: R) => settle(true, () => resolve(reply));
      const onError = (err: Error & { code?: string }) =>
        settle(false, () =>
          reject(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new LiquidLimitError('memory', `it needed more than the ${limits.heapMb} MB of memory Liquid may use`)
              : new LiquidLimitError('crash', 'the Liquid worker failed'),
          ),
        );
      const onExit = () => settle(false, () => reject(new LiquidLimitError('crash', 'the Liquid worker stopped')));
      const timer = setTimeout(
        () => settle(false, () => reject(new LiquidLimitError('time', `it took longer than the ${budgetMs} ms it may take`))),
        budgetMs,
      );
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.postMessage(job);
    });
  }

  async function run<R>(job: WorkerJob, budgetMs: number): Promise<R> {
    try {
      return await slots.run(() => onWorker<R>(job, budgetMs));
    } catch (err) {
      if (err instanceof BusyError) {
        throw new ServiceUnavailableError('Templates are being rendered at capacity; try again in a moment.', {
          code: 'liquid_busy',
          headers: { 'Retry-After': '1' },
        });
      }
      throw err;
    }
  }

  return {
    parse: (sources) => run<ParseReply>({ kind: 'parse', sources }, limits.parseBudgetMs),
    render: (sources, variables) => run<RenderReply>({ kind: 'render', sources, variables }, limits.renderBudgetMs),
    async close() {
      await Promise.all([...all].map((t) => t.worker.terminate()));
    },
  };
}
