import { Router, type Request, type Response } from 'express';
import { getPrincipal } from '@firewatch/auth';
import { NotFoundError } from '@firewatch/errors';
import { assertOnlyParams, sendTaggedDocument } from '@firewatch/jsonapi';
import type { IdentityService } from '../domain/identity.service.js';

/** `/v1/users`: for now only the caller's own record. */
export function usersRouter(identity: IdentityService): Router {
  const router = Router();

  // Any authenticated caller may read itself, like OAuth's userinfo: no scope or role
  // gate, since nothing beyond the caller's own record is revealed.
  router.get('/me', async (req: Request, res: Response) => {
    const principal = getPrincipal(req);
    assertOnlyParams(req.query, []);
    if (principal.user_id === null) throw new NotFoundError('This credential acts for the team, not for a user.', { code: 'no_user' });
    sendTaggedDocument(req, res, 200, { data: await identity.getUser(principal.team_id, principal.user_id) });
  });

  return router;
}
