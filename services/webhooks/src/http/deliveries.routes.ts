import { Router, type Request } from 'express';
import { getPrincipal } from '@firewatch/auth';
import { BadRequestError } from '@firewatch/errors';
import {
  assertOnlyParams,
  ifMatchOf,
  paginationLinks,
  parseListQuery,
  sendDocument,
  sendTaggedDocument,
  singleDocument,
} from '@firewatch/jsonapi';
import type { DeliveriesService } from '../domain/deliveries/deliveries.service.js';

/** Pages of deliveries and of attempts; deliveries.openapi.ts documents the same bounds. */
export const DELIVERY_PAGE = { defaultSize: 20, maxSize: 100 };
const LIST_SPEC = { filters: { status: 'string' as const }, sorts: ['created_at'], includes: ['attempts'], page: DELIVERY_PAGE };
/** The states a delivery is in; `filter[status]` takes these. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
const STATUSES = new Set<string>(DELIVERY_STATUSES);

const query = (req: Request) => req.query as Record<string, unknown>;

function includeOnly(req: Request): string[] {
  assertOnlyParams(query(req), ['include']);
  return parseListQuery({ include: query(req).include ?? '' }, { includes: ['attempts'] }).include;
}

/**
 * Deliveries (docs/webhooks.md): per endpoint, by id (attempts as `include=attempts` or the
 * `/attempts` sub-resource), and `POST .../deliver` to send one again.
 */
export function createDeliveriesRouter(service: DeliveriesService): Router {
  const router = Router();

  router.get('/v1/webhooks/endpoints/:endpointId/deliveries', async (req, res) => {
    const list = parseListQuery(query(req), LIST_SPEC);
    const status = list.filters
      .filter((f) => f.field === 'status')
      .flatMap((f) => (Array.isArray(f.value) ? f.value : [f.value]))
      .map(String);
    const unknown = status.find((s) => !STATUSES.has(s));
    if (unknown !== undefined || list.filters.some((f) => f.field === 'status' && !['eq', 'in'].includes(f.op))) {
      throw new BadRequestError('filter[status] takes pending, delivered or failed (eq or in).', {
        source: { parameter: 'filter[status]' },
      });
    }
    const direction = list.sort[0]?.direction ?? 'desc';
    const result = await service.listForEndpoint(
      getPrincipal(req),
      req.params.endpointId as string,
      {
        page: list.page,
        direction,
        status: status.length ? status : undefined,
      },
      list.include,
    );
    const { links, meta } = paginationLinks(req.path, query(req), list.page, result.found);
    sendDocument(res, 200, { data: result.records, ...(result.included.length ? { included: result.included } : {}), links, meta });
  });

  router.get('/v1/webhooks/deliveries/:id', async (req, res) => {
    const { record, included } = await service.get(getPrincipal(req), req.params.id as string, includeOnly(req));
    sendTaggedDocument(req, res, 200, singleDocument(record, included));
  });

  router.get('/v1/webhooks/deliveries/:id/attempts', async (req, res) => {
    const list = parseListQuery(query(req), { page: DELIVERY_PAGE });
    const { records, found } = await service.attempts(getPrincipal(req), req.params.id as string, list.page);
    const { links, meta } = paginationLinks(req.path, query(req), list.page, found);
    sendDocument(res, 200, { data: records, links, meta });
  });

  router.post('/v1/webhooks/deliveries/:id/deliver', async (req, res) => {
    assertOnlyParams(query(req), []);
    sendTaggedDocument(req, res, 200, singleDocument(await service.redeliver(getPrincipal(req), req.params.id as string, ifMatchOf(req))));
  });

  return router;
}
