import express, { Router, type Request, type Response } from 'express';
import { ACTION_TOKEN_HEADER } from '@firewatch/auth';
import { HttpError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { AlertLinkActions } from '../domain/notifications/alert-link-actions.js';
import { escapeMarkup as e } from '../domain/notifications/notification-message.js';

/**
 * The gateway takes `/alert-actions/{token}` and forwards it here with the token in its
 * header, so no path that on-call logs carries a usable link.
 */
export const ALERT_ACTIONS_PATH = '/alert-actions';

const tokenOf = (req: Request): string => {
  const token = req.headers[ACTION_TOKEN_HEADER];
  return typeof token === 'string' ? token : '';
};

const DONE: Record<string, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };

/** A small self-contained page: no script, no outside resource, never cached, never framed, the token never sent on as a referrer. */
function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    })
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<meta name="robots" content="noindex"><title>${e(title)}</title></head>` +
        `<body style="font-family:sans-serif;max-width:36em;margin:2em auto">${body}</body></html>`,
    );
}

function twiml(res: Response, said: string): void {
  res
    .status(200)
    .type('text/xml')
    .send(`<?xml version="1.0" encoding="UTF-8"?><Response><Say>${e(said)}</Say></Response>`);
}

function problem(error: unknown, logger: Logger): { status: number; detail: string } {
  if (error instanceof HttpError && error.status < 500) return { status: error.status, detail: error.detail ?? error.title };
  logger.error('alert action link failed', { error });
  return { status: 500, detail: 'Something went wrong. Try again, or open the alert in Firewatch.' };
}

/**
 * `GET|POST /alert-actions/{token}` (docs/paging.md, "Notifications"): the action links of
 * a page's email, SMS and call, reached through the gateway without an API credential (the
 * link's random token, which only on-call keeps and judges, is the credential; a missing or
 * unknown token is a 404 page). GET shows what the link will do and a confirmation
 * button and changes nothing, since mail scanners follow links; POST acts. A POST with a
 * `Digits` field is Twilio's answer to a call's `<Gather>` (1 acknowledges) and is
 * answered in TwiML.
 */
export function createAlertActionsRouter({ actions, logger }: { actions: AlertLinkActions; logger: Logger }): Router {
  const router = Router();
  router.get(ALERT_ACTIONS_PATH, async (req, res) => {
    try {
      const { link, alert } = await actions.preview(tokenOf(req));
      const verb = link.action === 'acknowledge' ? 'Acknowledge' : 'Resolve';
      page(
        res,
        200,
        `${verb} alert ${alert.short_id}`,
        `<h1>${verb} this alert?</h1><p><strong>${e(alert.summary)}</strong> (${e(alert.short_id)}, now ${e(alert.status)})</p>` +
          `<form method="post"><button type="submit" style="font-size:1.2em;padding:.5em 1.5em">${verb}</button></form>`,
      );
    } catch (error) {
      const { status, detail } = problem(error, logger);
      page(res, status, 'Alert link', `<h1>This link cannot be used</h1><p>${e(detail)}</p>`);
    }
  });
  router.post(ALERT_ACTIONS_PATH, express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    const digits = (req.body as Record<string, unknown> | undefined)?.Digits;
    const call = typeof digits === 'string';
    if (call && digits !== '1') return twiml(res, 'Not acknowledged. Goodbye.');
    try {
      const done = await actions.perform(tokenOf(req));
      if (call) return twiml(res, 'Acknowledged. Goodbye.');
      page(res, 200, `Alert ${DONE[done.action]}`, `<h1>Alert ${DONE[done.action]}</h1><p>The alert is now ${e(done.status)}.</p>`);
    } catch (error) {
      const { status, detail } = problem(error, logger);
      if (call) return twiml(res, `Not acknowledged. ${detail}`);
      page(res, status, 'Alert link', `<h1>Nothing was done</h1><p>${e(detail)}</p>`);
    }
  });
  return router;
}
