import { Redis } from 'ioredis';
import type { Logger } from '@firewatch/logger';

export interface RedisClientOptions {
  /** How long `connectRedis` waits for the first connection before serving anyway. */
  connectTimeoutMs?: number;
  /** A command slower than this fails (and the request is refused with 503). */
  commandTimeoutMs?: number;
}

/**
 * A Redis client for the rate limiter. Commands fail at once while Redis is away instead of
 * queueing: a request must not wait on a reconnect loop, and the limiter fails closed.
 * Resolves when connected, or after `connectTimeoutMs` with a warning (readiness reports it).
 */
export async function connectRedis(url: string, logger: Logger, options: RedisClientOptions = {}): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    // Rate-limit checks of concurrent requests leave in one write instead of one each.
    enableAutoPipelining: true,
  });
  let lastErrorLog = 0;
  redis.on('error', (err: Error) => {
    // ioredis reports every failed reconnect; one line per 10 s is enough to see the outage.
    const now = Date.now();
    if (now - lastErrorLog < 10_000) return;
    lastErrorLog = now;
    logger.warn('redis connection error', { error: err.message });
  });
  redis.on('ready', () => {
    if (lastErrorLog !== 0) logger.info('redis connection restored');
    lastErrorLog = 0;
  });

  await new Promise<void>((resolve) => {
    if (redis.status === 'ready') return resolve();
    const timer = setTimeout(() => {
      logger.warn('redis not reachable yet; rate-limited requests answer 503 until it is');
      redis.off('ready', onReady);
      resolve();
    }, options.connectTimeoutMs ?? 5000);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
  return redis;
}
