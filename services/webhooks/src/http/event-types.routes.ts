import { Router } from 'express';
import { authorize, getPrincipal } from '@firewatch/auth';
import { assertOnlyParams, sendDocument } from '@firewatch/jsonapi';
import { eventTypeResources } from '../domain/deliveries/event-types.js';

/**
 * `GET /v1/webhooks/event_types`: the whole catalog endpoints may subscribe to, in
 * one unpaginated page (it is short and changes only with a release). Unlike endpoints
 * and deliveries it is not for admins only: it names event types, the same for every
 * team and release, and carries no record.
 */
export function createEventTypesRouter(): Router {
  const router = Router();
  const data = eventTypeResources();
  router.get('/v1/webhooks/event_types', (req, res) => {
    assertOnlyParams(req.query as Record<string, unknown>, []);
    authorize(getPrincipal(req), { scope: null, side: 'ir', action: 'read' });
    sendDocument(res, 200, { data, meta: { total_count: data.length } });
  });
  return router;
}
