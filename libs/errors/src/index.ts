export * from './http-errors.js';
export { errorMiddleware, notFoundMiddleware, toErrorDocument } from './error-middleware.js';
