import type { RequestHandler } from 'express';
import type { Metrics } from './process-metrics.js';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** `GET /metrics`: the process's metrics in Prometheus's text format. */
export function metricsHandler(metrics: Metrics): RequestHandler {
  return (_req, res, next) => {
    metrics
      .scrape()
      .then(({ contentType, body }) => {
        res.setHeader('Cache-Control', 'no-store');
        res.type(contentType).send(body);
      })
      .catch(next);
  };
}
