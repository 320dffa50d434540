import { Router } from 'express';

/** Named readiness checks; each throws (or rejects) when its dependency is not ready. */
export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/**
 * `GET /healthz`: the process answers. `GET /readyz`: every check passes (200), else 503
 * with the failing ones named, so an orchestrator stops sending traffic.
 */
export function healthRoutes(readiness: ReadinessChecks = {}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of Object.entries(readiness)) {
      try {
        await check();
        checks[name] = 'ok';
      } catch {
        checks[name] = 'failing';
        ready = false;
      }
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  return router;
}
