import type { RequestListener } from 'node:http';
import type { z } from 'zod';
import { loadConfigOrExit } from '@firewatch/config';
import { createLogger, type Logger } from '@firewatch/logger';
import { startTracing } from '@firewatch/tracing';
import { serve } from './serve.js';

/** What every process's configuration has, whatever else it declares. */
export interface ShellConfig {
  PORT: number;
  HOST: string;
  LOG_LEVEL: 'error' | 'warn' | 'info' | 'http' | 'debug' | 'silent';
  SHUTDOWN_GRACE_MS: number;
}

/** A started process: what it serves, and how it lets go of its pools and connections. */
export interface Started {
  app: RequestListener;
  /** Runs once HTTP has drained on SIGTERM/SIGINT. */
  stop(): Promise<void>;
}

export interface RunServiceOptions<S extends z.ZodObject> {
  /** The `service` field of every log line, and the name in configuration errors. */
  name: string;
  schema: S;
  start(context: { config: z.infer<S>; logger: Logger }): Promise<Started>;
}

/**
 * The bootstrap of every Firewatch process: configuration validated once (exit 78 naming
 * each bad variable), a logger, the process's own start-up, then listening with graceful
 * shutdown. A `main.ts` is this call and its configuration.
 */
export async function runService<S extends z.ZodObject>(options: RunServiceOptions<S>): Promise<void> {
  const config = loadConfigOrExit(options.schema, options.name) as z.infer<S> & ShellConfig;
  const logger = createLogger({ service: options.name, level: config.LOG_LEVEL });
  // Before the process's own start-up, so its first requests and events are traced (when an OTLP endpoint is set).
  const tracing = await startTracing(options.name);
  if (tracing.enabled) logger.info('tracing on: spans go to the OTLP endpoint');
  const { app, stop } = await options.start({ config, logger });
  const onShutdown = async () => {
    await stop();
    await tracing.shutdown();
  };
  await serve(app, { port: config.PORT, host: config.HOST, logger, graceMs: config.SHUTDOWN_GRACE_MS, onShutdown });
}
