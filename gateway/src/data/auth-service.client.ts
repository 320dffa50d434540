import type { Principal, SystemTokens } from '@firewatch/auth';
import { BadGatewayError, ServiceUnavailableError } from '@firewatch/errors';
import type { Logger } from '@firewatch/logger';
import type { CredentialLimits } from '../domain/rate-limit.policy.js';

/** The auth service's answer for a credential it knows. */
export interface ResolvedCredentialAnswer {
  principal: Principal;
  rateLimits: CredentialLimits;
}

export interface AuthServiceClient {
  /** The credential's principal and limits; null when it is unknown, revoked or expired. */
  resolve(token: string): Promise<ResolvedCredentialAnswer | null>;
  /** Rejects when the auth service's /healthz does not answer 200. */
  ping(): Promise<void>;
}

export interface AuthServiceClientOptions {
  baseUrl: string;
  systemTokens: SystemTokens;
  logger: Logger;
  timeoutMs?: number;
}

const SYSTEM_TOKEN_REUSE_MS = 30_000;

function limitOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function isPrincipal(value: unknown): value is Principal {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Partial<Principal>;
  const c = p.credential as Record<string, unknown> | undefined;
  return (
    typeof p.team_id === 'number' &&
    Array.isArray(p.capabilities) &&
    typeof c === 'object' &&
    c !== null &&
    ((c.type === 'api_key' && typeof c.id === 'string') || (c.type === 'oauth' && typeof c.client_id === 'string'))
  );
}

/**
 * Calls `POST /internal/credentials/resolve` on the auth service with a system token.
 * Node's fetch keeps connections alive, so a cache miss costs one round trip, not a handshake.
 */
export function createAuthServiceClient({ baseUrl, systemTokens, logger, timeoutMs = 5000 }: AuthServiceClientOptions): AuthServiceClient {
  const resolveUrl = `${baseUrl}/internal/credentials/resolve`;
  let system: { token: Promise<string>; until: number } | undefined;

  function systemToken(): Promise<string> {
    const now = Date.now();
    if (!system || system.until <= now) system = { token: systemTokens.sign('gateway'), until: now + SYSTEM_TOKEN_REUSE_MS };
    return system.token;
  }

  return {
    async resolve(token) {
      let res: Response;
      try {
        res = await fetch(resolveUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${await systemToken()}`, 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new ServiceUnavailableError('The authentication service is unavailable. Try again shortly.', { cause: err });
      }
      if (res.status === 401) {
        const refused = (await res.json().catch(() => null)) as { errors?: { code?: string }[] } | null;
        // The auth service also answers 401 when it refuses *our* system token: that is a
        // deployment fault (SYSTEM_TOKEN_SECRET differs), not an unknown credential.
        if (refused?.errors?.[0]?.code === 'invalid_system_token') {
          logger.error('the auth service refused the gateway system token; check SYSTEM_TOKEN_SECRET');
          throw new ServiceUnavailableError('The authentication service is unavailable. Try again shortly.');
        }
        return null;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new ServiceUnavailableError('The authentication service is unavailable. Try again shortly.', {
          cause: new Error(`credential resolve answered ${res.status}`),
        });
      }
      const body = (await res.json().catch(() => null)) as { principal?: unknown; rate_limits?: Record<string, unknown> } | null;
      if (!body || !isPrincipal(body.principal)) {
        throw new BadGatewayError('The authentication service gave an answer the gateway cannot use.');
      }
      const limits = body.rate_limits ?? {};
      return { principal: body.principal, rateLimits: { read: limitOrNull(limits.read), write: limitOrNull(limits.write) } };
    },
    async ping() {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.status !== 200) throw new Error(`auth service /healthz answered ${res.status}`);
    },
  };
}
