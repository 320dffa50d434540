import http from 'node:http';
import type { RequestListener } from 'node:http';
import type { Logger } from '@firewatch/logger';
import { expressMessageClasses } from './express-messages.js';

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  graceMs: number;
  /** Closes pools, relays and consumers once HTTP has drained. */
  onShutdown: () => Promise<void>;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish
 * (up to `graceMs`), then runs `onShutdown` and exits.
 */
export async function serve(app: RequestListener, options: ServeOptions): Promise<http.Server> {
  const server = http.createServer(expressMessageClasses(app) ?? {}, app);
  server.keepAliveTimeout = 65_000; // longer than the gateway agent's idle timeout
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  options.logger.info('listening', { port: options.port, host: options.host });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    options.logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      options.logger.warn('grace period over; closing remaining connections');
      server.closeAllConnections();
    }, options.graceMs);
    force.unref();
    // Keep-alive sockets are closed as soon as they are idle, or a client holding one
    // open would delay the exit to the end of the grace period.
    server.closeIdleConnections();
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    clearInterval(sweeper);
    clearTimeout(force);
    try {
      await options.onShutdown();
      options.logger.info('stopped');
      // Let the logger flush its last lines before the process ends.
      setImmediate(() => process.exit(0));
    } catch (err) {
      options.logger.error('shutdown failed', { error: err });
      setImmediate(() => process.exit(1));
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return server;
}
