import type { Principal } from '@firewatch/auth';
import { ConflictError, HttpError, NotFoundError } from '@firewatch/errors';
import { collectionsOf, type ActionSpec, type ResourceModule, type Row, type Transaction } from '@firewatch/resource-kit';
import { acknowledgeActionFrom, resolveActionFrom } from '../alerts-in/alert-status.actions.js';
import type { ActionClaims, ActionLinks, LinkAction } from './action-links.js';

/** The source an action taken through a signed link records on the alert's event. */
export const LINK_SOURCE = 'email';

/** What the links need of on-call's tables (data/alert-action-links.repository.ts). */
export interface LinkStore {
  /** The user's roles when it is a live user of the team; null when deleted or unknown. */
  roles(teamId: number, userId: number): Promise<{ role: Principal['role']; on_call_role: Principal['on_call_role'] } | null>;
  /** Records the link's use inside the action's transaction; false when it was used before. */
  claim(tx: Transaction, claims: ActionClaims): Promise<boolean>;
  used(id: string): Promise<boolean>;
}

/** What a link's confirmation page shows. */
export interface LinkPreview {
  claims: ActionClaims;
  alert: { summary: string; status: string; short_id: string };
}

export interface AlertLinkActions {
  /** The link's alert and action, for the confirmation page; changes nothing (mail scanners follow links). */
  preview(token: string): Promise<LinkPreview>;
  /** Performs the link's action as its user, once; the alert's new status. */
  perform(token: string): Promise<{ action: LinkAction; status: string }>;
}

const ACTIONS: Record<LinkAction, ActionSpec<unknown>> = {
  acknowledge: acknowledgeActionFrom(LINK_SOURCE) as ActionSpec<unknown>,
  resolve: resolveActionFrom(LINK_SOURCE) as ActionSpec<unknown>,
};

/**
 * Signed action links (docs/paging.md, "Notifications"): a link acts as the user it was
 * sent to, through the same acknowledge and resolve actions as the API, so the alert's
 * rules, its re-trigger timer and its event are the API's; only the event's source is
 * `email`. The user's current roles apply (a user demoted to observer or deleted since
 * cannot act), and the link's use is recorded in the action's transaction, so a refused
 * action leaves the link usable and two concurrent uses act once.
 */
export function createAlertLinkActions(deps: { links: ActionLinks; store: LinkStore; alerts: ResourceModule }): AlertLinkActions {
  const call = { route: collectionsOf(deps.alerts.definition)[0], params: {} };

  async function open(token: string): Promise<{ claims: ActionClaims; principal: Principal }> {
    const verified = await deps.links.verify(token);
    if (!verified.ok)
      throw verified.problem === 'expired'
        ? new HttpError(410, 'Gone', 'link_expired', { detail: 'This link has expired. Open the alert in Firewatch instead.' })
        : new NotFoundError('This link is not valid.', { code: 'link_invalid' });
    const { claims } = verified;
    const roles = await deps.store.roles(claims.team_id, claims.user_id);
    if (!roles) throw new NotFoundError('The user this link was sent to no longer exists.', { code: 'link_user_gone' });
    const principal: Principal = {
      team_id: claims.team_id,
      user_id: claims.user_id,
      ...roles,
      // Acts as the user could with a personal key limited to changing alerts.
      credential: { type: 'api_key', id: `link:${claims.id}`, kind: 'personal' },
      capabilities: ['read', 'update'],
      scopes: null,
      group_ids: null,
      record_ids: null,
    };
    return { claims, principal };
  }

  const usedError = () => new ConflictError('This link was already used.', { code: 'link_used' });

  return {
    async preview(token) {
      const { claims, principal } = await open(token);
      if (await deps.store.used(claims.id)) throw usedError();
      // The alert as stored, read as the user may read it (another team's is a 404).
      const peek: ActionSpec<unknown> = {
        ...ACTIONS[claims.action],
        capabilities: ['read'],
        body: undefined,
        run: async ({ record }) => ({ document: record }),
      };
      const alert = (await deps.alerts.service.act(peek, principal, undefined, call, claims.alert_id)).document as Row;
      return { claims, alert: { summary: String(alert.summary), status: String(alert.status), short_id: String(alert.short_id) } };
    },
    async perform(token) {
      const { claims, principal } = await open(token);
      const base = ACTIONS[claims.action];
      const once: ActionSpec<unknown> = {
        ...base,
        async run(ctx) {
          if (!(await deps.store.claim(ctx.tx, claims))) throw usedError();
          return base.run(ctx);
        },
      };
      const result = await deps.alerts.service.act(once, principal, undefined, call, claims.alert_id);
      const document = result.document as { data: { attributes?: Row } };
      return { action: claims.action, status: String(document.data.attributes?.status ?? '') };
    },
  };
}
