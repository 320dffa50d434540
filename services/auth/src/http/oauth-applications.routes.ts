import { Router, type Request, type Response } from 'express';
import {
  assertOnlyParams,
  ifMatchOf,
  paginationLinks,
  parseListQuery,
  parseRequestDocument,
  sendDocument,
  sendSecretDocument,
  sendTaggedDocument,
} from '@firewatch/jsonapi';
import type { IssuedOAuthApplication } from '../domain/oauth-application.presenter.js';
import { createOAuthApplicationSchema, OAUTH_APPLICATION_TYPE, updateOAuthApplicationSchema } from '../domain/oauth-application.schemas.js';
import type { OAuthApplicationService } from '../domain/oauth-application.service.js';
import { actorOf } from '../domain/credential-bounds.rules.js';
import { idParam, requireAdmin } from './admin-guard.js';

/** The client secret rides along in the attributes of the create response, never again. */
function withSecret({ resource, client_secret }: IssuedOAuthApplication) {
  return { data: { ...resource, attributes: { ...resource.attributes, client_secret } } };
}

/** `/v1/oauth_applications`: client-credentials applications, for team admins. */
export function oauthApplicationsRouter(applications: OAuthApplicationService): Router {
  const router = Router();

  router.get('/', async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'read');
    const query = parseListQuery(req.query, { page: { defaultSize: 20, maxSize: 100 } });
    const { resources, found } = await applications.list(principal.team_id, query.page);
    sendDocument(res, 200, { data: resources, ...paginationLinks(req.baseUrl, req.query, query.page, found) });
  });

  router.post('/', async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'create');
    assertOnlyParams(req.query, []);
    const input = parseRequestDocument(req.body, { type: OAUTH_APPLICATION_TYPE, attributes: createOAuthApplicationSchema });
    const issued = await applications.create(actorOf(principal), input);
    res.location(`${req.baseUrl}/${issued.resource.id}`);
    sendSecretDocument(res, 201, withSecret(issued));
  });

  router.get('/:id', async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'read');
    assertOnlyParams(req.query, []);
    sendTaggedDocument(req, res, 200, { data: await applications.get(principal.team_id, idParam(req)) });
  });

  const update = async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'update');
    assertOnlyParams(req.query, []);
    const id = idParam(req);
    await applications.get(principal.team_id, id);
    const input = parseRequestDocument(req.body, { type: OAUTH_APPLICATION_TYPE, attributes: updateOAuthApplicationSchema, ids: [id] });
    sendTaggedDocument(req, res, 200, { data: await applications.update(principal.team_id, id, input, ifMatchOf(req)) });
  };
  router.put('/:id', update);
  router.patch('/:id', update);

  router.delete('/:id', async (req: Request, res: Response) => {
    const principal = requireAdmin(req, 'delete');
    assertOnlyParams(req.query, []);
    sendDocument(res, 200, { data: await applications.revoke(principal.team_id, idParam(req), ifMatchOf(req)) });
  });

  return router;
}
