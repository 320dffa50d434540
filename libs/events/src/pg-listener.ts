import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from '@firewatch/logger';
import { createReconnectLoop } from './reconnect-loop.js';

/** The connection settings of `knex`, for a LISTEN client of the same database. */
export function listenConnectionOf(knex: Knex): string | pg.ClientConfig {
  const connection = (knex.client as { config: Knex.Config }).config.connection;
  if (!connection || typeof connection === 'function') {
    throw new Error('LISTEN: pass a connection (the knex connection is not a static setting)');
  }
  return connection as string | pg.ClientConfig;
}

/** Options of {@link createPgListener}. */
export interface PgListenerOptions {
  connection: string | pg.ClientConfig;
  channel: string;
  logger: Logger;
  onNotify(): void;
  /** Called after every (re)connect: notifications sent while disconnected are lost. */
  onReady(): void;
}

/** A dedicated LISTEN connection; see {@link createPgListener}. */
export interface PgListener {
  readonly listening: boolean;
  /** Connects once; resolves after that attempt whatever its outcome (retries continue in the background). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * LISTENs on `channel` over its own client (a pooled connection would be handed to
 * other queries and lose the LISTEN), reconnecting with back-off when it drops.
 */
export function createPgListener(opts: PgListenerOptions): PgListener {
  const { logger, channel } = opts;
  let client: pg.Client | null = null;
  let stopped = false;

  function drop(c: pg.Client, err?: Error): void {
    if (client !== c) return;
    client = null;
    logger.warn('listen connection lost', { channel, error: err?.message });
    c.end().catch(() => undefined);
    loop.schedule(true);
  }

  async function tryOnce(): Promise<boolean> {
    const c = new pg.Client(opts.connection);
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, new Error('connection ended')));
    c.on('notification', (n) => {
      if (n.channel === channel) opts.onNotify();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      logger.warn('listen connect failed', { channel, error: (err as Error).message });
      await c.end().catch(() => undefined);
      return stopped;
    }
    if (stopped) {
      await c.end().catch(() => undefined);
      return true;
    }
    client = c;
    opts.onReady();
    return true;
  }

  const loop = createReconnectLoop(tryOnce, { initialMs: 500, maxMs: 30_000 });

  return {
    get listening() {
      return client !== null;
    },
    async start() {
      if (!(await tryOnce())) loop.schedule(true);
    },
    async stop() {
      stopped = true;
      await loop.stop();
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
