import { Router, type Request, type Response } from 'express';
import { PRINCIPAL_HEADER, type PrincipalVerifier } from '@firewatch/auth';
import { UnauthorizedError } from '@firewatch/errors';
import type { HeartbeatPings } from '../domain/heartbeats/heartbeat-pings.js';
import { SOURCE_SECRET_HEADER } from './alert-ingest.routes.js';

export const HEARTBEAT_PING_PATH = '/ingest/heartbeats/:id';

/**
 * `GET` or `POST /ingest/heartbeats/{id}` (docs/on-call.md, "Heartbeats"): a cron job's
 * ping with the heartbeat's own secret, reached only through the gateway, which signs an
 * ingestion principal for this path and passes the secret (from the bearer or the path's
 * last segment, which it never forwards) in the secret header. GET because `curl URL` is
 * what a crontab line holds. The body, if any, is not read. 204 once the ping committed.
 */
export function createHeartbeatPingRouter({ principals, pings }: { principals: PrincipalVerifier; pings: HeartbeatPings }): Router {
  const router = Router();
  const ping = async (req: Request, res: Response) => {
    const id = req.params.id as string;
    const header = req.headers[PRINCIPAL_HEADER];
    const principal = await principals.verifyIngestion(typeof header === 'string' ? header : undefined, {
      method: req.method,
      path: req.path,
    });
    if (!principal || principal.source_id !== id.toLowerCase())
      throw new UnauthorizedError('Requests must come through the gateway.', { code: 'no_principal' });
    const secret = req.headers[SOURCE_SECRET_HEADER];
    const heartbeat = await pings.authenticate(id, typeof secret === 'string' ? secret : undefined);
    await pings.ping(heartbeat);
    res.status(204).end();
  };
  router.get(HEARTBEAT_PING_PATH, ping);
  router.post(HEARTBEAT_PING_PATH, ping);
  return router;
}
