import { type NextFunction, Router, type Request, type RequestHandler, type Response } from 'express';
import { getPrincipal } from '@firewatch/auth';
import { BadRequestError } from '@firewatch/errors';
import {
  assertOnlyParams,
  type FilterKind,
  ifMatchOf,
  type ListQuerySpec,
  paginationLinks,
  parseListQuery,
  parseRequestDocument,
  sendDocument,
  sendSecretDocument,
  sendTaggedDocument,
  singleDocument,
} from '@firewatch/jsonapi';
import { operationsOf, type AnyResourceDefinition } from './resource-definition.js';
import type { ActionSpec, CollectionRoute, Row } from './resource-shapes.js';
import type { ResourceService } from './resource.service.js';
import { includeNames } from './includes.js';
import { collectionsOf, expressPath, itemPathOf } from './resource-paths.js';

/** The list-query allow-lists a declaration implies. */
export function listQuerySpec(def: AnyResourceDefinition): ListQuerySpec {
  const filters: Record<string, FilterKind> = {};
  for (const [name, spec] of Object.entries(def.filters ?? {})) filters[name] = typeof spec === 'string' ? spec : spec.kind;
  const extraParams = def.source ? Object.keys(def.source.params.shape) : undefined;
  return { filters, sorts: def.sorts ?? [], includes: includeNames(def), page: def.page, extraParams };
}

type Handler = (req: Request, res: Response) => Promise<void>;

/**
 * One route of a resource. Phases order registration across every resource of a
 * service: static collection paths (`/v1/functionalities/properties`, `bulk_upsert`)
 * before items (`/v1/functionalities/:id`), items before their actions.
 */
export interface RouteEntry {
  phase: 0 | 1 | 2;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  handler: Handler;
}

const query = (req: Request) => req.query as Record<string, unknown>;
const stringParams = (req: Request) => req.params as Record<string, string>;

function includeParam(req: Request, def: AnyResourceDefinition, flags: readonly string[] = []): string[] {
  assertOnlyParams(query(req), ['include', ...flags]);
  for (const parameter of flags) {
    const value = query(req)[parameter];
    if (value !== undefined && value !== 'true' && value !== 'false')
      throw new BadRequestError(`${parameter}: must be true or false`, { source: { parameter }, code: 'invalid_parameter' });
  }
  return parseListQuery({ include: query(req).include ?? '' }, { includes: includeNames(def) }).include;
}

function sourceParams(def: AnyResourceDefinition, extra: Record<string, unknown>): Row {
  const parsed = def.source!.params.safeParse(extra);
  if (parsed.success) return parsed.data as Row;
  const issue = parsed.error.issues[0];
  const parameter = String(issue?.path[0] ?? '');
  throw new BadRequestError(`${parameter}: ${issue?.message}`, { source: { parameter }, code: 'invalid_parameter' });
}

function collectionRoutes(def: AnyResourceDefinition, service: ResourceService, route: CollectionRoute): RouteEntry[] {
  const ops = operationsOf(def);
  const spec = listQuerySpec(def);
  const out: RouteEntry[] = [];
  const path = expressPath(route.path);
  if (ops.has('list')) {
    out.push({
      phase: 0,
      method: 'get',
      path,
      handler: async (req, res) => {
        const q = parseListQuery(query(req), spec);
        const call = { route, params: stringParams(req) };
        if (def.source) {
          // A computed collection has no stored order to seek in: offset pages only.
          if (q.page.after !== undefined)
            throw new BadRequestError('This collection is computed: it pages by page[number] only.', {
              source: { parameter: 'page[after]' },
              code: 'unknown_parameter',
            });
          const { records, meta, included } = await service.computed(
            getPrincipal(req),
            sourceParams(def, q.extra),
            q.page,
            call,
            q.include,
          );
          return void sendDocument(res, 200, { data: records, ...(included.length ? { included } : {}), meta });
        }
        const { records, found, included } = await service.list(getPrincipal(req), q, call);
        const { links, meta } = paginationLinks(req.path, query(req), q.page, found);
        sendDocument(res, 200, { data: records, ...(included.length ? { included } : {}), links, meta });
      },
    });
  }
  if (ops.has('create')) {
    out.push({
      phase: 0,
      method: 'post',
      path,
      handler: async (req, res) => {
        assertOnlyParams(query(req), []);
        const attributes = parseRequestDocument(req.body, { type: def.type, attributes: def.create! }) as Row;
        const record = await service.create(getPrincipal(req), attributes, { route, params: stringParams(req) });
        res.location(`${def.path}/${record.id}`);
        // A revealed one-time value (e.g. a webhook secret) must not stay in any cache.
        (def.hooks?.revealOnCreate ? sendSecretDocument : sendDocument)(res, 201, singleDocument(record));
      },
    });
  }
  return out;
}

function itemRoutes(def: AnyResourceDefinition, service: ResourceService): RouteEntry[] {
  const ops = operationsOf(def);
  const path = expressPath(itemPathOf(def));
  const out: RouteEntry[] = [];
  if (ops.has('get')) {
    out.push({
      phase: 1,
      method: 'get',
      path,
      handler: async (req, res) => {
        // No query string: no parameter to judge, and nothing to include.
        const include = req.url.includes('?') ? includeParam(req, def, Object.keys(def.getFlags ?? {})) : [];
        const { record, included } = await service.get(getPrincipal(req), stringParams(req).id, include);
        sendTaggedDocument(req, res, 200, singleDocument(record, included));
      },
    });
  }
  if (ops.has('update')) {
    const handler: Handler = async (req, res) => {
      assertOnlyParams(query(req), []);
      const id = stringParams(req).id;
      const read = (existing: Row) =>
        parseRequestDocument(req.body, {
          type: def.type,
          attributes: def.update!,
          ids: [id, String(existing.id), ...(typeof existing.slug === 'string' ? [existing.slug] : [])],
        }) as Row;
      const method = req.method === 'PATCH' ? 'patch' : 'put';
      sendTaggedDocument(req, res, 200, singleDocument(await service.update(getPrincipal(req), id, read, ifMatchOf(req), method)));
    };
    for (const method of def.updateMethods ?? ['put', 'patch']) out.push({ phase: 1, method, path, handler });
  }
  if (ops.has('delete')) {
    out.push({
      phase: 1,
      method: 'delete',
      path,
      handler: async (req, res) => {
        assertOnlyParams(query(req), []);
        const record = await service.remove(getPrincipal(req), stringParams(req).id, ifMatchOf(req));
        if (def.deleteAnswer === 'empty') res.status(200).end();
        else sendDocument(res, 200, singleDocument(record));
      },
    });
  }
  return out;
}

/** An item action's answer that is the record itself (`{data}` of the declaration's type and id), so it carries the record's ETag. */
function isRecordAnswer(def: AnyResourceDefinition, document: unknown, idOrSlug: string): boolean {
  const { data, ...rest } = document as { data?: { type?: unknown; id?: unknown; attributes?: { slug?: unknown } } };
  if (Object.keys(rest).length || !data || Array.isArray(data) || data.type !== def.type) return false;
  return data.id === idOrSlug || data.attributes?.slug === idOrSlug;
}

function actionRoute(def: AnyResourceDefinition, service: ResourceService, action: ActionSpec<unknown>): RouteEntry[] {
  const segment = action.path ?? action.name;
  const bases: readonly CollectionRoute[] = action.on === 'item' ? [{ path: itemPathOf(def) }] : collectionsOf(def);
  return bases.map((route) => ({
    phase: action.on === 'item' ? 2 : 0,
    method: action.method ?? 'post',
    path: expressPath(`${route.path}/${segment}`),
    handler: async (req, res) => {
      assertOnlyParams(query(req), []);
      const id = action.on === 'item' ? stringParams(req).id : undefined;
      const result = await service.act(action, getPrincipal(req), req.body, { route, params: stringParams(req) }, id, ifMatchOf(req));
      if (result.document === undefined) res.status(result.status ?? 200).end();
      else if (result.secret) sendSecretDocument(res, result.status ?? 200, result.document);
      else if (id !== undefined && isRecordAnswer(def, result.document, id))
        sendTaggedDocument(req, res, result.status ?? 200, result.document);
      else sendDocument(res, result.status ?? 200, result.document as never);
    },
  }));
}

/** Every route of one declared resource. */
export function resourceRoutes(def: AnyResourceDefinition, service: ResourceService): RouteEntry[] {
  return [
    ...(def.actions ?? []).flatMap((a) => actionRoute(def, service, a as ActionSpec<unknown>)),
    ...collectionsOf(def).flatMap((route) => collectionRoutes(def, service, route)),
    ...itemRoutes(def, service),
  ];
}

// The static segment after `/v1` a path starts with (`environments`); express matches
// paths case-insensitively (`/V1/Environments` too), so the key is lowercased.
const FIRST_SEGMENT = /^\/v1\/([^/:]+)(?:\/|$)/i;
const firstSegment = (path: string) => FIRST_SEGMENT.exec(path)?.[1]?.toLowerCase();

function routerOf(entries: readonly RouteEntry[]): Router {
  const router = Router();
  for (const e of entries) router[e.method](e.path, e.handler);
  return router;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * The routes a request of `method` walks: those of its method; undefined for another
 * method, which walks them all. HEAD walks them all too: express's router matches a HEAD
 * to every route of its path (setting `req.route`, so the metrics' route label) and only
 * then skips one without GET; OPTIONS collects the methods of each for its `Allow`.
 */
function methodOf(method: string): RouteEntry['method'] | undefined {
  const m = method.toLowerCase();
  return (METHODS as readonly string[]).includes(m) ? (m as RouteEntry['method']) : undefined;
}

/** A router of all `entries`, and one for each method of its routes of that method alone (same order). */
function routersOf(entries: readonly RouteEntry[]) {
  const all = routerOf(entries);
  const byMethod = new Map(METHODS.map((m) => [m, routerOf(entries.filter((e) => e.method === m))]));
  // By the method as node gives it (`GET`): one lookup a request, no lowercased copy.
  const byName = new Map([...byMethod].map(([m, router]) => [m.toUpperCase(), router]));
  return { all, of: (method: string) => byName.get(method) ?? byMethod.get(methodOf(method)!) ?? all };
}

/** What {@link mountRoutes} returns: one handler, and the routers it chooses from (each route once) for tools that list an app's routes. */
export type MountedRoutes = RequestHandler & { readonly routers: readonly Router[] };

/**
 * One handler for a service's resources, static paths registered before `{id}` ones.
 * A request walks only the routes under its first path segment (a service declares
 * some 150 routes, and express tries each in turn), and of those only the routes of its
 * method (express skips the others; HEAD, OPTIONS and a path with '%' walk all), in the
 * same order as if all were registered in one router; a route whose first segment is a
 * parameter is in every walk. A handler, not a router around it: each router a request
 * enters saves and restores its state.
 */
export function mountRoutes(entries: readonly RouteEntry[]): MountedRoutes {
  const ordered = ([0, 1, 2] as const).flatMap((phase) => entries.filter((e) => e.phase === phase));
  const segments = new Set(ordered.map((e) => firstSegment(e.path)));
  const bySegment = new Map<string, ReturnType<typeof routersOf>>();
  for (const segment of segments) {
    if (segment === undefined) continue;
    bySegment.set(segment, routersOf(ordered.filter((e) => [segment, undefined].includes(firstSegment(e.path)))));
  }
  const anySegment = segments.has(undefined) ? routersOf(ordered.filter((e) => firstSegment(e.path) === undefined)) : undefined;
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    const segment = firstSegment(path);
    const routes = (segment !== undefined && bySegment.get(segment)) || anySegment;
    // Express decodes a route's parameters as it matches the path, whatever the route's
    // methods: a malformed percent-encoding (only a path with '%' has one) under another
    // method's route is a 400, so such a path walks every route.
    if (routes) (path.includes('%') ? routes.all : routes.of(req.method))(req, res, next);
    else next();
  };
  const routers = [...bySegment.values(), ...(anySegment ? [anySegment] : [])].map((r) => r.all);
  return Object.assign(dispatch, { routers });
}
