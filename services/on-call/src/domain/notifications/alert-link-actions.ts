import type { Principal } from '@firewatch/auth';
import { ConflictError, HttpError, NotFoundError } from '@firewatch/errors';
import { collectionsOf, type ActionSpec, type ResourceModule, type Row } from '@firewatch/resource-kit';
import { acknowledgeActionFrom, resolveActionFrom } from '../alerts-in/alert-status.actions.js';
import type { ActionLinks, LinkAction, StoredLink } from './action-links.js';

/** A link's principal's credential id: `link:<channel>:<row id>`. */
const LINK_CREDENTIAL = /^link:(email|sms|voice):/;

/**
 * The source of an alert event a write by `principal` records: through an action link, the
 * channel the link was sent on (`email`, `sms`, `voice`); else `api`.
 */
export const sourceOf = ({ credential }: Principal): string =>
  (credential.type === 'api_key' && LINK_CREDENTIAL.exec(credential.id)?.[1]) || 'api';

/** The users read model, as links need it (data/alert-action-links.repository.ts). */
export interface LinkUsers {
  /** The user's roles when it is a live user of the team; null when deleted or unknown. */
  roles(teamId: number, userId: number): Promise<{ role: Principal['role']; on_call_role: Principal['on_call_role'] } | null>;
}

/** What a link's confirmation page shows. */
export interface LinkPreview {
  link: StoredLink;
  alert: { summary: string; status: string; short_id: string };
}

export interface AlertLinkActions {
  /** The link's alert and action, for the confirmation page; changes nothing (mail scanners follow links). */
  preview(token: string): Promise<LinkPreview>;
  /** Performs the link's action as its user, once; the alert's new status. */
  perform(token: string): Promise<{ action: LinkAction; status: string }>;
}

/** Each action as recorded from each channel a link is sent on. */
const ACTIONS = Object.fromEntries(
  (['email', 'sms', 'voice'] as const).map((channel) => [
    channel,
    {
      acknowledge: acknowledgeActionFrom(channel) as ActionSpec<unknown>,
      resolve: resolveActionFrom(channel) as ActionSpec<unknown>,
    },
  ]),
) as Record<StoredLink['channel'], Record<LinkAction, ActionSpec<unknown>>>;

const PROBLEMS = {
  invalid: () => new NotFoundError('This link is not valid.', { code: 'link_invalid' }),
  expired: () => new HttpError(410, 'Gone', 'link_expired', { detail: 'This link has expired. Open the alert in Firewatch instead.' }),
  used: () => new ConflictError('This link was already used.', { code: 'link_used' }),
};

/**
 * Action links (docs/paging.md, "Notifications"): a link acts as the user it was
 * sent to, through the same acknowledge and resolve actions as the API, so the alert's
 * rules, its re-trigger timer and its event are the API's; only the event's source is
 * the channel the link was sent on (`email`, `sms`, `voice`). The user's current roles
 * apply (a user demoted to observer or deleted since cannot act), and the link is spent in the action's transaction, so a refused action
 * leaves the link usable and two concurrent uses act once.
 */
export function createAlertLinkActions(deps: { links: ActionLinks; users: LinkUsers; alerts: ResourceModule }): AlertLinkActions {
  const call = { route: collectionsOf(deps.alerts.definition)[0], params: {} };

  async function open(token: string): Promise<{ link: StoredLink; principal: Principal }> {
    const opened = await deps.links.open(token);
    if (!opened.ok) throw PROBLEMS[opened.problem]();
    const { link } = opened;
    const roles = await deps.users.roles(link.team_id, link.user_id);
    if (!roles) throw new NotFoundError('The user this link was sent to no longer exists.', { code: 'link_user_gone' });
    const principal: Principal = {
      team_id: link.team_id,
      user_id: link.user_id,
      ...roles,
      // Acts as the user could with a personal key limited to changing alerts (named by the link's row, never its token).
      credential: { type: 'api_key', id: `link:${link.channel}:${link.id}`, kind: 'personal' },
      capabilities: ['read', 'update'],
      scopes: null,
      group_ids: null,
      record_ids: null,
    };
    return { link, principal };
  }

  return {
    async preview(token) {
      const { link, principal } = await open(token);
      // The alert as stored, read as the user may read it (another team's is a 404).
      const peek: ActionSpec<unknown> = {
        ...ACTIONS[link.channel][link.action],
        capabilities: ['read'],
        body: undefined,
        run: async ({ record }) => ({ document: record }),
      };
      const alert = (await deps.alerts.service.act(peek, principal, undefined, call, link.alert_id)).document as Row;
      return { link, alert: { summary: String(alert.summary), status: String(alert.status), short_id: String(alert.short_id) } };
    },
    async perform(token) {
      const { link, principal } = await open(token);
      const base = ACTIONS[link.channel][link.action];
      const once: ActionSpec<unknown> = {
        ...base,
        async run(ctx) {
          if (!(await deps.links.claim(ctx.tx, link))) throw PROBLEMS.used();
          return base.run(ctx);
        },
      };
      const result = await deps.alerts.service.act(once, principal, undefined, call, link.alert_id);
      const document = result.document as { data: { attributes?: Row } };
      return { action: link.action, status: String(document.data.attributes?.status ?? '') };
    },
  };
}
