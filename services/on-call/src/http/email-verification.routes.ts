import { Router } from 'express';
import { getPrincipal } from '@firewatch/auth';
import { assertOnlyParams, sendDocument } from '@firewatch/jsonapi';
import type { EmailVerification } from '../domain/notifications/email-verification.js';

/**
 * `POST /v1/email_addresses/{id}/resend_verification` and `POST
 * /v1/email_addresses/{id}/verify?token=` (docs/paging.md, "Verifying email addresses"):
 * by hand, as the kit's actions read no query parameter and the reference puts the token in
 * one. Both answer the address.
 */
export function createEmailVerificationRouter({ verification }: { verification: EmailVerification }): Router {
  const router = Router();
  router.post('/v1/email_addresses/:id/resend_verification', async (req, res) => {
    assertOnlyParams(req.query as Record<string, unknown>, []);
    sendDocument(res, 200, { data: await verification.resend(getPrincipal(req), req.params.id) });
  });
  router.post('/v1/email_addresses/:id/verify', async (req, res) => {
    assertOnlyParams(req.query as Record<string, unknown>, ['token']);
    const token = req.query.token;
    sendDocument(res, 200, {
      data: await verification.verify(getPrincipal(req), req.params.id, typeof token === 'string' ? token : undefined),
    });
  });
  return router;
}
