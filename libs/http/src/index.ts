export { createServiceApp, type ServiceAppDeps } from './service-app.js';
export { healthRoutes, type ReadinessChecks } from './health.routes.js';
export { serve, type ServeOptions } from './serve.js';
export { runService, type RunServiceOptions, type ShellConfig, type Started } from './run-service.js';
export {
  idempotencyMiddleware,
  type IdempotencyOptions,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_KEPT_ANSWER_BYTES,
} from './idempotency.middleware.js';
export { idempotencyMigration, IDEMPOTENCY_TABLE } from './idempotency.migration.js';
export { IDEMPOTENCY_TTL_SECONDS, IDEMPOTENCY_ABANDONED_SECONDS } from './idempotency.store.js';
