import { Router, type Request } from 'express';
import { getPrincipal } from '@firewatch/auth';
import {
  assertOnlyParams,
  type FilterKind,
  type ListQuerySpec,
  paginationLinks,
  parseListQuery,
  parseRequestDocument,
  sendDocument,
  sendSecretDocument,
  singleDocument,
} from '@firewatch/jsonapi';
import { ALL_OPERATIONS, type ResourceDefinition, type Row } from './resource-definition.js';
import type { ResourceService } from './resource.service.js';

/** The list-query allow-lists a declaration implies. */
export function listQuerySpec(def: ResourceDefinition): ListQuerySpec {
  const filters: Record<string, FilterKind> = {};
  for (const [name, spec] of Object.entries(def.filters ?? {})) filters[name] = typeof spec === 'string' ? spec : spec.kind;
  return { filters, sorts: def.sorts ?? [], includes: Object.keys(def.includes ?? {}), page: def.page };
}

function includeParam(req: Request, def: ResourceDefinition): string[] {
  const query = req.query as Record<string, unknown>;
  assertOnlyParams(query, ['include']);
  return parseListQuery({ include: query.include ?? '' }, { includes: Object.keys(def.includes ?? {}) }).include;
}

function bodyId(req: Request): string[] {
  const id = (req.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  // The service checks a body id against the record's UUID; here any string passes on.
  return typeof id === 'string' ? [req.params.id as string, id] : [req.params.id as string];
}

/**
 * The JSON:API routes of a declared resource: list, get, create, update (PUT and
 * PATCH, both partial) and delete, each only when the declaration enables it.
 */
export function createResourceRouter(def: ResourceDefinition, service: ResourceService): Router {
  const router = Router();
  const ops = new Set(def.operations ?? ALL_OPERATIONS);
  const spec = listQuerySpec(def);
  const item = `${def.path}/:id`;

  if (ops.has('list')) {
    router.get(def.path, async (req, res) => {
      const query = parseListQuery(req.query as Record<string, unknown>, spec);
      const { records, total, included } = await service.list(getPrincipal(req), query);
      const { links, meta } = paginationLinks(def.path, req.query as Record<string, unknown>, query.page, total);
      sendDocument(res, 200, { data: records, ...(included.length ? { included } : {}), links, meta });
    });
  }
  if (ops.has('get')) {
    router.get(item, async (req, res) => {
      const { record, included } = await service.get(getPrincipal(req), req.params.id as string, includeParam(req, def));
      sendDocument(res, 200, singleDocument(record, included));
    });
  }
  if (ops.has('create')) {
    router.post(def.path, async (req, res) => {
      assertOnlyParams(req.query as Record<string, unknown>, []);
      const attributes = parseRequestDocument(req.body, { type: def.type, attributes: def.create }) as Row;
      const record = await service.create(getPrincipal(req), attributes);
      res.location(`${def.path}/${record.id}`);
      // A revealed one-time value (e.g. a webhook secret) must not stay in any cache.
      (def.revealOnCreate ? sendSecretDocument : sendDocument)(res, 201, singleDocument(record));
    });
  }
  if (ops.has('update')) {
    const update = async (req: Request, res: Parameters<Parameters<Router['put']>[1]>[1]) => {
      assertOnlyParams(req.query as Record<string, unknown>, []);
      const ids = bodyId(req);
      const read = () => parseRequestDocument(req.body, { type: def.type, attributes: def.update, ids }) as Row;
      const record = await service.update(getPrincipal(req), req.params.id as string, read, ids[1]);
      sendDocument(res, 200, singleDocument(record));
    };
    router.put(item, update);
    router.patch(item, update);
  }
  if (ops.has('delete')) {
    router.delete(item, async (req, res) => {
      assertOnlyParams(req.query as Record<string, unknown>, []);
      sendDocument(res, 200, singleDocument(await service.remove(getPrincipal(req), req.params.id as string)));
    });
  }
  return router;
}
