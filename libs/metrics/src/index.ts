export {
  createMetrics,
  counterOf,
  histogramOf,
  observedGauge,
  metricOf,
  LATENCY_BUCKETS,
  type Metrics,
  type MetricsOptions,
} from './process-metrics.js';
export {
  httpMetrics,
  captureRouteTemplates,
  routeTemplateOf,
  UNMATCHED_ROUTE,
  CLIENT_CLOSED_STATUS,
  type HttpMetricsOptions,
} from './http-metrics.js';
export { metricsHandler, METRICS_PATH } from './metrics-endpoint.js';
export { observeKnexPool, type PoolLike, type PooledClient } from './pool-metrics.js';
export { observeOutbox, relayObserver, BACKLOG_TIMEOUT_MS, type OutboxBacklog, type RelayObserver } from './outbox-metrics.js';
export { deliveryRecorder, type DeliveryOutcome, type DeliveryRecorder } from './delivery-metrics.js';
export { alertRecorder, type AlertRecorder } from './alert-metrics.js';
export { notificationRecorder, type NotificationRecorder } from './notification-metrics.js';
export { readSample } from './read-sample.js';
