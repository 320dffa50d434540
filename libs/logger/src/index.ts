export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { redact } from './redact.js';
export { assignRequestId, requestContext, currentRequestId, requestIdMiddleware, REQUEST_ID_HEADER } from './request-context.js';
export { randomRequestId } from './request-id.js';
