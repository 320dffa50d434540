import { Router, type Request, type Response } from 'express';

/** Liveness and readiness probes; readiness asks the dependencies. */
export function healthRouter(ready: () => Promise<void>): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (_req: Request, res: Response) => {
    try {
      await ready();
      res.status(200).json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });
  return router;
}
