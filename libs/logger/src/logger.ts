import winston from 'winston';
import { isLevelEnabled } from './level-enabled.js';
import { redact } from './redact.js';
import { currentRequestId } from './request-context.js';

export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Defaults to stdout; tests pass a stream to read what was logged. */
  stream?: NodeJS.WritableStream;
}

const addContext = winston.format((info) => {
  const requestId = currentRequestId();
  if (requestId && info.request_id === undefined) info.request_id = requestId;
  return info;
});

const redactAll = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key !== 'level') info[key] = (redact({ [key]: info[key] }) as Record<string, unknown>)[key];
  }
  return info;
});

/** A winston logger writing one JSON object per line, with service and request id. */
export function createLogger({ service, level = 'info', stream }: LoggerOptions): Logger {
  const silent = level === 'silent';
  const logger = winston.createLogger({
    level: silent ? 'error' : level,
    silent,
    defaultMeta: { service },
    format: winston.format.combine(
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      addContext(),
      redactAll(),
      winston.format.json(),
    ),
    transports: [stream ? new winston.transports.Stream({ stream }) : new winston.transports.Console()],
  });
  logger.isLevelEnabled = isLevelEnabled;
  return logger;
}
