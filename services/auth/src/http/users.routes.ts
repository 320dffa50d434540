import { Router, type Request, type Response } from 'express';
import { getPrincipal, ROLES } from '@firewatch/auth';
import { BadRequestError, NotFoundError } from '@firewatch/errors';
import {
  assertOnlyParams,
  ifMatchOf,
  paginationLinks,
  parseListQuery,
  parseRequestDocument,
  sendDocument,
  sendTaggedDocument,
  type ListQuery,
  type ListQuerySpec,
} from '@firewatch/jsonapi';
import { actorOf } from '../domain/credential-bounds.rules.js';
import type { IdentityService } from '../domain/identity.service.js';
import { updateUserAttributesSchema } from '../domain/users.schemas.js';
import type { UsersService } from '../domain/users.service.js';
import { USER_INCLUDES, type UserIncludes } from '../domain/user-includes.js';
import { idParam, requireAdmin } from './admin-guard.js';
import { requireEditor, requireReader } from './users-guard.js';

/** The list query of `GET /v1/users`; its OpenAPI parameters come from it too. */
export const USER_LIST_SPEC: ListQuerySpec = {
  filters: {
    search: 'search',
    email: 'string',
    name: 'search',
    role: 'string',
    on_call_role: 'string',
    is_service_account: 'boolean',
    created_at: 'date',
    updated_at: 'date',
  },
  sorts: ['created_at', 'updated_at', 'name', 'email'],
  includes: USER_INCLUDES,
  page: { defaultSize: 20, maxSize: 100 },
};

/** Role filters name a role (400 otherwise); emails are stored lower-cased, so they are compared so. */
function normalizedFilters(filters: ListQuery['filters']): ListQuery['filters'] {
  return filters.map((f) => {
    const values = Array.isArray(f.value) ? f.value : [f.value];
    if (f.field === 'role' || f.field === 'on_call_role') {
      const unknown = values.find((v) => !(ROLES as readonly unknown[]).includes(v));
      if (unknown !== undefined) {
        const parameter = `filter[${f.field}]${f.op === 'eq' ? '' : `[${f.op}]`}`;
        throw new BadRequestError(`Unknown role "${String(unknown)}" in ${parameter}; roles: ${ROLES.join(', ')}.`, {
          source: { parameter },
          code: 'invalid_parameter',
        });
      }
    }
    if (f.field !== 'email') return f;
    return { ...f, value: Array.isArray(f.value) ? f.value.map((v) => String(v).toLowerCase()) : String(f.value).toLowerCase() };
  });
}

/** `/v1/users`: the team's users directory, and the caller's own record. */
export function usersRouter(identity: IdentityService, users: UsersService, includes: UserIncludes): Router {
  const router = Router();

  // Any authenticated caller may read itself, like OAuth's userinfo: no scope or role
  // gate, since nothing beyond the caller's own record is revealed.
  router.get('/me', async (req: Request, res: Response) => {
    const principal = getPrincipal(req);
    assertOnlyParams(req.query, []);
    if (principal.user_id === null) throw new NotFoundError('This credential acts for the team, not for a user.', { code: 'no_user' });
    sendTaggedDocument(req, res, 200, { data: await identity.getUser(principal.team_id, principal.user_id) });
  });

  router.get('/', async (req: Request, res: Response) => {
    const principal = requireReader(req);
    const query = parseListQuery(req.query, USER_LIST_SPEC);
    const { resources, found } = await users.list(principal.team_id, { ...query, filters: normalizedFilters(query.filters) });
    const included = query.include.length
      ? {
          included: await includes(
            principal,
            resources.map((r) => Number(r.id)),
            query.include,
          ),
        }
      : {};
    sendDocument(res, 200, { data: resources, ...included, ...paginationLinks(req.baseUrl, req.query, query.page, found) });
  });

  router.get('/:id', async (req: Request, res: Response) => {
    const principal = requireReader(req);
    assertOnlyParams(req.query, ['include']);
    const { include } = parseListQuery(req.query, { includes: USER_INCLUDES });
    const data = await users.get(principal.team_id, idParam(req));
    const included = include.length ? { included: await includes(principal, [Number(data.id)], include) } : {};
    sendTaggedDocument(req, res, 200, { data, ...included });
  });

  router.put('/:id', async (req: Request, res: Response) => {
    const id = idParam(req);
    // 404 for a user the team lacks comes first, then who may change it, then the body.
    await users.assertExists(getPrincipal(req).team_id, id);
    const { principal, editor } = requireEditor(req, id);
    assertOnlyParams(req.query, []);
    const input = parseRequestDocument(req.body, { type: 'users', attributes: updateUserAttributesSchema, ids: [id] });
    sendTaggedDocument(req, res, 200, { data: await users.update(actorOf(principal), editor, id, input, ifMatchOf(req)) });
  });

  router.delete('/:id', async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'delete');
    assertOnlyParams(req.query, []);
    sendDocument(res, 200, { data: await users.remove(actorOf(principal), idParam(req), ifMatchOf(req)) });
  });

  return router;
}
