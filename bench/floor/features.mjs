// What floor+'s gateway and service share (FEATURES=1: bench:floor's BENCH_FLOOR_FEATURES):
// the switch, jose, and the request histogram our metrics keep, as the least code.
import { createRequire } from 'node:module';

export const features = process.env.FEATURES === '1';
// jose and prom-client are libs/auth's and libs/metrics' dependencies, not the root's.
export const jose = features ? createRequire(new URL('../../libs/auth/package.json', import.meta.url))('jose') : undefined;
const promClient = features ? createRequire(new URL('../../libs/metrics/package.json', import.meta.url))('prom-client') : undefined;
const duration = features
  ? new promClient.Histogram({
      name: 'floor_http_request_duration_seconds',
      help: 'requests',
      labelNames: ['method', 'route', 'status_code'],
    })
  : undefined;

/** Times the request into the histogram once its answer is out, by method, route and status. */
export function timeRequest(req, res) {
  const started = process.hrtime.bigint();
  res.on('finish', () =>
    duration.observe(
      { method: req.method, route: '/v1/environments', status_code: res.statusCode },
      Number(process.hrtime.bigint() - started) / 1e9,
    ),
  );
}
