import { Router, type Request, type Response } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import type { HeartbeatPings } from '../domain/heartbeats/heartbeat-pings.js';
import { ingestionCaller } from './ingestion-caller.js';

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
    const { id, secret } = await ingestionCaller(req, principals);
    const heartbeat = await pings.authenticate(id, secret);
    await pings.ping(heartbeat);
    res.status(204).end();
  };
  router.get(HEARTBEAT_PING_PATH, ping);
  router.post(HEARTBEAT_PING_PATH, ping);
  return router;
}
