import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Transaction } from '@firewatch/resource-kit';
import type { NotificationRequest } from '../paging/paging.ports.js';
import { createGroupCommit } from './group-commit.js';

export const LINK_ACTIONS = ['acknowledge', 'resolve'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

/** One link as kept: one action on one alert, by one user, for one paging attempt. */
export interface StoredLink {
  /** The row's own id (what the acting principal's credential names); not the token. */
  id: string;
  /** SHA-256 of the token: the token itself is never stored. */
  token_digest: Buffer;
  team_id: number;
  alert_id: string;
  user_id: number;
  action: LinkAction;
  /** The channel the link was sent on: what an action through it records as its event's source. */
  channel: NotificationRequest['channel'];
  attempt_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** The links' table (data/alert-action-links.repository.ts). */
export interface ActionLinkStore {
  /** Stores links, in one statement. */
  insert(links: Omit<StoredLink, 'used_at'>[]): Promise<void>;
  find(digest: Buffer): Promise<StoredLink | null>;
  /** Marks the link used inside the action's transaction; false when it was used before. */
  claim(tx: Transaction, digest: Buffer, at: Date): Promise<boolean>;
}

export type OpenedLink = { ok: true; link: StoredLink } | { ok: false; problem: 'invalid' | 'expired' | 'used' };

export interface ActionLinks {
  /** The public URL that performs `action` for the request's user (after a confirmation). */
  url(request: NotificationRequest, action: LinkAction): Promise<string>;
  /**
   * Both links of a notification; those of requests made in the same turn of the event loop
   * (a claim's sends) are stored together, one statement for all of them.
   */
  urls(request: NotificationRequest): Promise<Record<LinkAction, string>>;
  /** What the token does, if it still may. Changes nothing. */
  open(token: string): Promise<OpenedLink>;
  /** Spends the link in the action's transaction: false when another use went first. */
  claim(tx: Transaction, link: StoredLink): Promise<boolean>;
}

export interface ActionLinkOptions {
  store: ActionLinkStore;
  /** The gateway's public URL, without a trailing slash. */
  baseUrl: string;
  /** How long a link works; default 24 h. */
  ttlSeconds?: number;
  now?: () => Date;
}

/** The path (outside `/v1`) the gateway forwards without an API credential. */
export const ACTION_LINK_PREFIX = '/alert-actions/';
/** 128 random bits in base64url: 22 characters, short enough for an SMS. */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

const digestOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Acknowledge and resolve links that act on an alert as a user without signing in
 * (docs/paging.md, "Notifications"). The token is 128 random bits, opaque: what it does
 * is a row kept under the token's SHA-256, so the table (a backup, a read replica) holds
 * nothing that works as a link, and looking a token up by its digest tells a guesser
 * nothing about how close a guess came. Expiry and single use are that row's
 * `expires_at` and `used_at`; no key exists to leak or rotate.
 */
export function createActionLinks(options: ActionLinkOptions): ActionLinks {
  const ttlMs = (options.ttlSeconds ?? 24 * 3600) * 1000;
  const now = options.now ?? (() => new Date());
  type NewLink = Omit<StoredLink, 'used_at'>;
  function made(request: NotificationRequest, action: LinkAction): { link: NewLink; url: string } {
    const token = randomBytes(16).toString('base64url');
    const link: NewLink = {
      id: randomUUID(),
      token_digest: digestOf(token),
      team_id: request.team_id,
      alert_id: String(request.alert.id),
      user_id: request.user.user_id,
      action,
      channel: request.channel,
      attempt_id: request.attempt_id,
      expires_at: new Date(now().getTime() + ttlMs),
    };
    return { link, url: `${options.baseUrl}${ACTION_LINK_PREFIX}${token}` };
  }
  // A batch that fails is stored request by request: one bad row does not cost the others their links.
  const stored = createGroupCommit<NewLink[]>({
    maxBatch: 100,
    record: (batches) => options.store.insert(batches.flat()),
    recordOne: (links) => options.store.insert(links),
    onBatchFailed: () => undefined,
  });
  return {
    async url(request, action) {
      const { link, url } = made(request, action);
      await options.store.insert([link]);
      return url;
    },
    async urls(request) {
      const [acknowledge, resolve] = [made(request, 'acknowledge'), made(request, 'resolve')];
      await stored.record([acknowledge.link, resolve.link]);
      return { acknowledge: acknowledge.url, resolve: resolve.url };
    },
    async open(token) {
      if (!TOKEN.test(token)) return { ok: false, problem: 'invalid' };
      const link = await options.store.find(digestOf(token));
      if (!link) return { ok: false, problem: 'invalid' };
      if (link.used_at) return { ok: false, problem: 'used' };
      if (link.expires_at.getTime() <= now().getTime()) return { ok: false, problem: 'expired' };
      return { ok: true, link };
    },
    claim: (tx, link) => options.store.claim(tx, link.token_digest, now()),
  };
}
