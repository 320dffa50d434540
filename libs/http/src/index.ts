export { createServiceApp, type ServiceAppDeps } from './service-app.js';
export { healthRoutes, type ReadinessChecks } from './health.routes.js';
export { serve, type ServeOptions } from './serve.js';
export { runService, type RunServiceOptions, type ShellConfig, type Started } from './run-service.js';
