import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { errors, type InteractionResults, type Provider } from 'oidc-provider';
import { ServiceUnavailableError } from '@firewatch/errors';
import type { OAuthAccounts } from '../domain/oauth-accounts.js';
import { WRONG_CREDENTIALS, type OAuthLoginService } from '../domain/oauth-login.service.js';
import type { LoginThrottle } from '../domain/oauth-login-throttle.js';
import { APPLICATION_ID_PROPERTY } from '../domain/client-registration.rules.js';
import { describeScopes } from '../domain/oauth-consent-summary.js';
import { PAGE_SECURITY_HEADERS } from '../domain/oidc-error-page.js';
import { clientAddress } from '@firewatch/client-address';
import { consentPage, loginPage, messagePage, type LoginView } from './interaction.views.js';

export interface InteractionDeps {
  provider: Provider;
  accounts: OAuthAccounts;
  login: OAuthLoginService;
  /** Failure counters per account, address and interaction (docs/oauth.md). */
  throttle: LoginThrottle;
  /** Keys for the CSRF token (the cookie keys); the first signs, all verify. */
  csrfKeys: string[];
  issuer: string;
  /** Dynamically registered clients a team may have bound at once (OAUTH_CLIENTS_PER_TEAM). */
  clientsPerTeam?: number;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.set(PAGE_SECURITY_HEADERS);
  next();
}

/** The login and consent pages of the authorization code flow (server-rendered HTML). */
export function interactionRouter(deps: InteractionDeps): Router {
  const router = Router();
  const { provider } = deps;
  const csrfFor = (uid: string, key = deps.csrfKeys[0]) => createHmac('sha256', key).update(`csrf:${uid}`).digest('base64url');
  const origin = new URL(deps.issuer).origin;

  /** A double check on every POST: the HMAC token bound to this interaction, and the Origin. */
  function assertCsrf(req: Request, uid: string): void {
    const sent = Buffer.from(String((req.body as Record<string, unknown> | undefined)?.csrf ?? ''));
    const ok = deps.csrfKeys.some((k) => {
      const expected = Buffer.from(csrfFor(uid, k));
      return expected.length === sent.length && timingSafeEqual(expected, sent);
    });
    const from = req.headers.origin;
    if (!ok || (from !== undefined && from !== 'null' && from !== origin)) throw new CsrfError();
  }

  const clientOf = (details: Details) => provider.Client.find(String(details.params.client_id));
  const clientName = async (details: Details) => (await clientOf(details))?.clientName ?? String(details.params.client_id);
  const html = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
  // No team name before sign-in: a client id alone must not reveal whose it is
  // (docs/oauth.md, "Login and consent pages").
  const renderLogin = async (res: Response, status: number, details: Details, extra: Partial<LoginView> = {}) => {
    html(res, status, loginPage({ uid: details.uid, csrf: csrfFor(details.uid), clientName: await clientName(details), ...extra }));
  };
  const finish = (req: Request, res: Response, result: InteractionResults, merge: boolean) =>
    provider.interactionFinished(req, res, result, { mergeWithLastSubmission: merge });

  router.use(securityHeaders);

  router.get('/:uid', async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') return renderLogin(res, 200, details);
    const user = await deps.accounts.find(String(details.session?.accountId));
    if (!user) return renderLogin(res, 200, details);
    const client = await clientOf(details);
    html(
      res,
      200,
      consentPage({
        uid: details.uid,
        csrf: csrfFor(details.uid),
        clientName: client?.clientName ?? String(details.params.client_id),
        userName: `${user.name} <${user.email}>`,
        teamName: await deps.login.teamName(user.team_id),
        redirectHost: URL.parse(String(details.params.redirect_uri))?.host ?? String(details.params.redirect_uri),
        unverified: client?.metadata()[APPLICATION_ID_PROPERTY] === undefined,
        sections: describeScopes(String(details.params.scope ?? '')),
      }),
    );
  });

  router.post('/:uid/login', form, async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    assertCsrf(req, details.uid);
    if (details.prompt.name !== 'login') throw new errors.SessionNotFound('interaction is not waiting for a login');
    if (!(await deps.throttle.countSubmission(details.uid))) {
      return html(
        res,
        400,
        messagePage('Too many attempts', 'Too many sign-in attempts for this request. Return to the application and start again.'),
      );
    }
    const body = req.body as Record<string, string | undefined>;
    const email = String(body.email ?? '').slice(0, 320);
    const teamId = /^\d{1,10}$/.test(body.team_id ?? '') ? Number(body.team_id) : undefined;
    const admission = await deps.throttle.admit(email, clientAddress(req));
    if (!admission.ok) {
      // The same page as a wrong password; only the status and Retry-After tell a client to wait.
      res.set('Retry-After', String(admission.retryAfterSeconds));
      return renderLogin(res, 429, details, { email, error: WRONG_CREDENTIALS });
    }
    let outcome: Awaited<ReturnType<OAuthLoginService['authenticate']>>;
    try {
      outcome = await deps.login.authenticate({
        email,
        password: String(body.password ?? ''),
        clientId: String(details.params.client_id),
        teamId,
      });
    } catch (err) {
      await admission.attempt.abandoned();
      if (!(err instanceof ServiceUnavailableError)) throw err;
      res.set(err.headers);
      return renderLogin(res, 503, details, { email, error: err.detail });
    }
    if (!outcome.ok && outcome.reason === 'invalid_credentials') await admission.attempt.failed();
    else await admission.attempt.succeeded();
    if (!outcome.ok) {
      const status = outcome.reason === 'invalid_credentials' ? 401 : outcome.reason === 'other_team' ? 403 : 200;
      return renderLogin(res, status, details, {
        email,
        error: outcome.message,
        teams: outcome.reason === 'choose_team' ? outcome.teams : undefined,
      });
    }
    await finish(req, res, { login: { accountId: String(outcome.user.id) } }, false);
  });

  router.post('/:uid/confirm', form, async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    assertCsrf(req, details.uid);
    if (details.prompt.name !== 'consent') throw new errors.SessionNotFound('interaction is not waiting for consent');
    if ((req.body as Record<string, string>).decision !== 'approve') {
      return finish(req, res, { error: 'access_denied', error_description: 'The user denied the request.' }, false);
    }
    const user = await deps.accounts.find(String(details.session?.accountId));
    const clientId = String(details.params.client_id);
    if (!user) return finish(req, res, { error: 'access_denied', error_description: 'Unknown user.' }, false);
    const bound = await deps.login.bindOnConsent(clientId, user, deps.clientsPerTeam);
    // The cap is the team's to resolve, not the application's: say so here, do not redirect.
    if (!bound.ok && bound.reason === 'team_full') return html(res, 403, messagePage('Too many applications', bound.message));
    if (!bound.ok) return finish(req, res, { error: 'access_denied', error_description: bound.message }, false);

    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: user.id.toString(), clientId }))
      : new provider.Grant({ accountId: user.id.toString(), clientId });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await finish(req, res, { consent: { grantId } }, true);
  });

  router.post('/:uid/abort', form, async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    assertCsrf(req, details.uid);
    await finish(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, false);
  });

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof CsrfError)
      return html(res, 403, messagePage('Request refused', 'The form was not submitted from this page (CSRF check failed).'));
    if (err instanceof ServiceUnavailableError) {
      res.set(err.headers);
      return html(res, 503, messagePage('Try again shortly', err.detail ?? 'The service is unavailable.'));
    }
    if (err instanceof errors.SessionNotFound) {
      return html(res, 400, messagePage('Sign-in expired', 'This sign-in request has expired or was already completed.'));
    }
    next(err);
  });
  return router;
}

class CsrfError extends Error {}
