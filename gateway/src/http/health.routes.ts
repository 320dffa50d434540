import { Router } from 'express';
import type { CredentialResolver } from '../domain/credential-resolver.js';
import type { RateLimitStore } from '../domain/rate-limit.store.js';

export interface HealthOptions {
  store: RateLimitStore;
  /** 'redis' or 'memory', reported by /readyz. */
  storeKind: 'redis' | 'memory';
  resolver: CredentialResolver;
}

type Check = 'ok' | 'down' | 'not_configured';

async function check(probe: () => Promise<void>): Promise<Check> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'down';
  }
}

/** `/healthz`: the process answers. `/readyz`: Redis (when used) and the auth service answer. */
export function healthRoutes({ store, storeKind, resolver }: HealthOptions): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [redis, auth] = await Promise.all([
      storeKind === 'redis' ? check(() => store.ping()) : Promise.resolve<Check>('not_configured'),
      check(() => resolver.ping()),
    ]);
    const ready = redis !== 'down' && auth === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: { redis, auth } });
  });
  return router;
}
