import { Router, type Request, type Response } from 'express';
import { API_KEY_KINDS } from '@firewatch/auth';
import { BadRequestError } from '@firewatch/errors';
import {
  assertOnlyParams,
  ifMatchOf,
  paginationLinks,
  parseListQuery,
  parseRequestDocument,
  sendDocument,
  sendSecretDocument,
  sendTaggedDocument,
  type ListQuery,
  type ListQuerySpec,
} from '@firewatch/jsonapi';
import { API_KEY_TYPE, type IssuedApiKey } from '../domain/api-key.presenter.js';
import { apiCreateApiKeySchema, canonicalKind, rotateApiKeySchema, updateApiKeySchema } from '../domain/api-key.schemas.js';
import type { ApiKeyService } from '../domain/api-key.service.js';
import { actorOf } from '../domain/credential-bounds.rules.js';
import { idParam, requireAdmin as admin } from './admin-guard.js';

/** The list query of `GET /v1/api_keys`; its OpenAPI parameters come from it too. */
export const API_KEY_LIST_SPEC: ListQuerySpec = {
  filters: {
    kind: 'string',
    name: 'string',
    search: 'search',
    user_id: 'integer',
    group_ids: 'string',
    active: 'boolean',
    expired: 'boolean',
    created_at: 'date',
    expires_at: 'date',
    last_used_at: 'date',
  },
  sorts: ['name', 'kind', 'created_at', 'updated_at', 'expires_at', 'last_used_at'],
  page: { defaultSize: 20, maxSize: 100 },
};

const MAX_INT = 2_147_483_647;

/** Values parseListQuery cannot judge: kinds (with the reference aliases) and integer range. */
function checkFilterValues(filters: ListQuery['filters']): void {
  for (const { field, op, value } of filters) {
    const values = Array.isArray(value) ? value : [value];
    const parameter = `filter[${field}]${op === 'eq' ? '' : `[${op}]`}`;
    const bad = (detail: string) => new BadRequestError(detail, { source: { parameter }, code: 'invalid_parameter' });
    if (field === 'kind') {
      const unknown = values.map((v) => canonicalKind(String(v))).find((k) => !(API_KEY_KINDS as readonly string[]).includes(k));
      if (unknown !== undefined) throw bad(`Unknown kind "${unknown}" in ${parameter}.`);
    }
    if (field === 'user_id' && values.some((v) => Math.abs(Number(v)) > MAX_INT)) throw bad(`${parameter} is out of range.`);
  }
}

/** The token rides along in the attributes of this one response, never again. */
function withToken({ resource, token }: IssuedApiKey) {
  return { data: { ...resource, attributes: { ...resource.attributes, token } } };
}

/** `/v1/api_keys`: JSON:API over the shared API key service. */
export function apiKeysRouter(apiKeys: ApiKeyService): Router {
  const router = Router();

  router.get('/', async (req: Request, res: Response) => {
    const principal = admin(req, 'read');
    const query = parseListQuery(req.query, API_KEY_LIST_SPEC);
    checkFilterValues(query.filters);
    const { resources, found } = await apiKeys.list(principal.team_id, query);
    sendDocument(res, 200, { data: resources, ...paginationLinks(req.baseUrl, req.query, query.page, found) });
  });

  router.post('/', async (req: Request, res: Response) => {
    const principal = admin(req, 'create');
    assertOnlyParams(req.query, []);
    const input = parseRequestDocument(req.body, { type: API_KEY_TYPE, attributes: apiCreateApiKeySchema });
    const issued = await apiKeys.create(actorOf(principal), input);
    res.location(`${req.baseUrl}/${issued.resource.id}`);
    sendSecretDocument(res, 201, withToken(issued));
  });

  router.get('/:id', async (req: Request, res: Response) => {
    const principal = admin(req, 'read');
    assertOnlyParams(req.query, []);
    sendTaggedDocument(req, res, 200, { data: await apiKeys.get(principal.team_id, idParam(req)) });
  });

  router.put('/:id', async (req: Request, res: Response) => {
    const principal = admin(req, 'update');
    assertOnlyParams(req.query, []);
    const id = idParam(req);
    // Look the key up first so another team's id answers 404 before any 422 about the body.
    await apiKeys.get(principal.team_id, id);
    const input = parseRequestDocument(req.body, { type: API_KEY_TYPE, attributes: updateApiKeySchema, ids: [id] });
    sendTaggedDocument(req, res, 200, { data: await apiKeys.update(actorOf(principal), id, input, ifMatchOf(req)) });
  });

  router.delete('/:id', async (req: Request, res: Response) => {
    const principal = admin(req, 'delete');
    assertOnlyParams(req.query, []);
    sendDocument(res, 200, { data: await apiKeys.revoke(principal.team_id, idParam(req), ifMatchOf(req)) });
  });

  router.post('/:id/rotate', async (req: Request, res: Response) => {
    const principal = admin(req, 'update');
    assertOnlyParams(req.query, []);
    const id = idParam(req);
    await apiKeys.get(principal.team_id, id);
    // The body is optional: a bare POST rotates with the defaults.
    const input =
      req.body === undefined ? {} : parseRequestDocument(req.body, { type: API_KEY_TYPE, attributes: rotateApiKeySchema, ids: [id] });
    sendSecretDocument(res, 200, withToken(await apiKeys.rotate(actorOf(principal), id, input, ifMatchOf(req))));
  });

  return router;
}
