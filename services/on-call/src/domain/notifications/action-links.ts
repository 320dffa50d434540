import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { NotificationRequest } from '../paging/paging.ports.js';

export const LINK_ACTIONS = ['acknowledge', 'resolve'] as const;
export type LinkAction = (typeof LINK_ACTIONS)[number];

/** What a signed action link names: one action on one alert, by one user, for one paging attempt. */
export interface ActionClaims {
  /** The token's own id: what single use is recorded by. */
  id: string;
  team_id: number;
  alert_id: string;
  user_id: number;
  action: LinkAction;
  attempt_id: string;
  expires_at: Date;
}

export type VerifiedLink = { ok: true; claims: ActionClaims } | { ok: false; problem: 'expired' | 'invalid' };

export interface ActionLinks {
  /** The public URL that performs `action` for the request's user (after a confirmation). */
  url(request: NotificationRequest, action: LinkAction): Promise<string>;
  verify(token: string): Promise<VerifiedLink>;
}

export interface ActionLinkOptions {
  /** At least 32 bytes; HMAC-SHA-256 key held by on-call alone. */
  key: Uint8Array;
  /** The gateway's public URL, without a trailing slash. */
  baseUrl: string;
  /** How long a link works; default 24 h. */
  ttlSeconds?: number;
  now?: () => Date;
}

/** The path (outside `/v1`) the gateway forwards without an API credential. */
export const ACTION_LINK_PREFIX = '/alert-actions/';
/** Short: the link goes in SMS, where every character counts. The key is this use's alone (HKDF), `aud` says it again. */
const AUDIENCE = 'fw-link';

/**
 * Signed, expiring links that act on an alert as a user without signing in (docs/paging.md,
 * "Notifications"). The token is an HS256 JWT: the key never leaves on-call, which both
 * signs and verifies, so no one else can mint one; `alg` and `aud` are pinned.
 * Single use is the caller's (the token's `jti` is recorded when it acts).
 */
export function createActionLinks(options: ActionLinkOptions): ActionLinks {
  const ttl = options.ttlSeconds ?? 24 * 3600;
  const now = options.now ?? (() => new Date());
  return {
    async url(request, action) {
      const expires = Math.floor(now().getTime() / 1000) + ttl;
      const token = await new SignJWT({
        team: request.team_id,
        alert: String(request.alert.id),
        act: action,
        att: request.attempt_id,
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(AUDIENCE)
        .setSubject(String(request.user.user_id))
        .setJti(randomBytes(16).toString('base64url'))
        .setExpirationTime(expires)
        .sign(options.key);
      return `${options.baseUrl}${ACTION_LINK_PREFIX}${token}`;
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, options.key, {
          algorithms: ['HS256'],
          audience: AUDIENCE,
          currentDate: now(),
          requiredClaims: ['jti', 'sub', 'exp'],
        });
        const { team, alert, act, att, sub, jti, exp } = payload as Record<string, unknown>;
        const userId = Number(sub);
        if (
          typeof team !== 'number' ||
          typeof alert !== 'string' ||
          !LINK_ACTIONS.includes(act as LinkAction) ||
          typeof att !== 'string' ||
          !Number.isSafeInteger(userId) ||
          typeof jti !== 'string'
        )
          return { ok: false, problem: 'invalid' };
        return {
          ok: true,
          claims: {
            id: jti,
            team_id: team,
            alert_id: alert,
            user_id: userId,
            action: act as LinkAction,
            attempt_id: att,
            expires_at: new Date((exp as number) * 1000),
          },
        };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) return { ok: false, problem: 'expired' };
        return { ok: false, problem: 'invalid' };
      }
    },
  };
}
