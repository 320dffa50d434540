import amqp, { type ChannelModel } from 'amqplib';
import type { Logger } from '@firewatch/logger';
import type { BackoffOptions } from './backoff.js';
import { createReconnectLoop } from './reconnect-loop.js';

/** Options of {@link createAmqpConnection}. */
export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  /** Shown as the connection name in RabbitMQ and in logs. */
  name: string;
  /**
   * Opens channels, asserts topology and starts consumers on a fresh connection; runs
   * again after every reconnect. Throwing counts as a failed attempt. Every channel it
   * opens must get `error` and `close` listeners.
   */
  setup(model: ChannelModel): Promise<void>;
  /** Called after `setup` succeeded. */
  onUp?(): void;
  /** Called when the connection is lost, so owners drop their channel references. */
  onDown?(): void;
  /** Called when the broker blocks (memory/disk alarm) or unblocks publishing. */
  onBlockedChange?(blocked: boolean): void;
  backoff?: BackoffOptions;
  /** Bound on connecting plus `setup`, so a silent network cannot hang the reconnect loop. Default 10000. */
  connectTimeoutMs?: number;
}

/** A broker connection that reconnects itself; see {@link createAmqpConnection}. */
export interface AmqpConnection {
  readonly connected: boolean;
  readonly blocked: boolean;
  /** Connects once; resolves after that first attempt whatever its outcome (retries continue in the background). */
  start(): Promise<void>;
  /** Drops the current connection (e.g. its channel died) and reconnects with back-off. */
  reset(reason: Error): void;
  /** Closes for good; idempotent. */
  close(): Promise<void>;
  /** Test hook: destroys the socket as a network failure would. */
  destroySocket(): void;
}

const CLOSE_TIMEOUT_MS = 3000;
const DEFAULT_HEARTBEAT_S = '15';
const noop = () => undefined;

// The server suggests 60 s heartbeats, i.e. two minutes to notice a dead peer; the URL may override.
function withHeartbeat(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', DEFAULT_HEARTBEAT_S);
  return u.toString();
}

async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Socket = { destroyed: boolean; destroy(err?: Error): void };
const socketOf = (model: ChannelModel) => (model as unknown as { connection?: { stream?: Socket } }).connection?.stream;

// amqplib watches its socket's 'error' and 'end' only: a socket destroyed without an
// error would go unnoticed (heartbeats still running) until the heartbeat timeout.
function destroySocket(model: ChannelModel, reason: string): void {
  socketOf(model)?.destroy(new Error(reason));
}

// close() waits for the broker's close-ok, which never comes on a dead or silent socket.
async function closeQuietly(model: ChannelModel): Promise<void> {
  if (socketOf(model)?.destroyed) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
  });
  await Promise.race([model.close().catch(noop), timeout]);
  clearTimeout(timer);
  destroySocket(model, 'amqp connection closed by client');
}

type Mux = { _readIncoming?: () => void };
type Corkable = { cork(): void; uncork(): void };

/**
 * amqplib's mux writes each frame it finds queued to the socket with a write of its own:
 * a relay's batch of publishes, or a consumer's acks of a batch, were one syscall per
 * message on both ends. Corked for the mux's pass, the socket sends the frames of the
 * pass in one write: the same bytes in the same order, when they would have gone anyway
 * (the mux still stops at a full socket buffer and waits for its 'drain'). Left as it is
 * where amqplib's internals are not as expected.
 */
function coalesceFrames(model: ChannelModel): void {
  const connection = (model as unknown as { connection?: { muxer?: Mux; stream?: Partial<Corkable> } }).connection;
  const mux = connection?.muxer;
  const pass = mux?._readIncoming;
  const out = connection?.stream;
  if (!mux || typeof pass !== 'function' || typeof out?.cork !== 'function' || typeof out.uncork !== 'function') return;
  const socket = out as Corkable;
  mux._readIncoming = () => {
    socket.cork();
    try {
      pass.call(mux);
    } finally {
      socket.uncork();
    }
  };
}

/**
 * One AMQP connection kept alive for its owner (the outbox relay or a consumer): error,
 * close and blocked listeners on the connection, capped exponential back-off with
 * jitter between reconnects, and `setup` re-run on every new connection so channels,
 * exchanges, queues and consumers come back with it.
 */
export function createAmqpConnection(opts: AmqpConnectionOptions): AmqpConnection {
  const { logger, name } = opts;
  let model: ChannelModel | null = null;
  let blocked = false;
  let closed = false;
  const url = withHeartbeat(opts.url);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;

  function lost(m: ChannelModel, reason?: Error): void {
    if (model !== m) return;
    model = null;
    blocked = false;
    logger.warn('amqp connection lost', { connection: name, error: reason?.message });
    opts.onDown?.();
    loop.schedule(true);
  }

  async function tryOnce(): Promise<boolean> {
    let m: ChannelModel | undefined;
    try {
      m = await amqp.connect(url, { clientProperties: { connection_name: name }, timeout: connectTimeoutMs });
      const self = m;
      coalesceFrames(m);
      m.on('error', (err: Error) => logger.warn('amqp connection error', { connection: name, error: err.message }));
      m.on('close', (err?: Error) => lost(self, err ?? new Error('connection closed')));
      m.on('handler-error', (err: Error, event: string) =>
        logger.error('amqp handler failed', { connection: name, event, error: err.message }),
      );
      m.on('blocked', (reason: string) => {
        blocked = true;
        logger.warn('amqp connection blocked by broker', { connection: name, reason });
        opts.onBlockedChange?.(true);
      });
      m.on('unblocked', () => {
        blocked = false;
        logger.info('amqp connection unblocked', { connection: name });
        opts.onBlockedChange?.(false);
      });
      await within(connectTimeoutMs, 'amqp setup', opts.setup(m));
      if (closed) {
        await closeQuietly(m);
        return true;
      }
      model = m;
      logger.info('amqp connected', { connection: name });
      opts.onUp?.();
      return true;
    } catch (err) {
      logger.warn('amqp connect failed', { connection: name, error: (err as Error).message });
      if (m) void closeQuietly(m);
      return closed;
    }
  }

  const loop = createReconnectLoop(tryOnce, opts.backoff);

  return {
    get connected() {
      return model !== null;
    },
    get blocked() {
      return blocked;
    },
    async start() {
      if (!(await tryOnce())) loop.schedule(true);
    },
    reset(reason) {
      const m = model;
      if (!m) return;
      lost(m, reason);
      void closeQuietly(m);
    },
    async close() {
      closed = true;
      await loop.stop();
      const m = model;
      model = null;
      if (m) await closeQuietly(m);
    },
    destroySocket() {
      if (model) destroySocket(model, 'simulated network failure');
    },
  };
}
