import { createHmac } from 'node:crypto';
import Provider from 'oidc-provider';

interface TokenPrototype {
  generateTokenId(this: unknown): string;
}

/**
 * Idempotent refresh-token rotation (docs/oauth.md, "Refresh tokens"). Inside the grace
 * window the adapter lets a used refresh token be redeemed again (a client retrying a lost
 * response). Left alone, the provider would mint a fresh successor each time, so a thief
 * redeeming within the window got a chain of its own. Here the successor's value is derived
 * from its predecessor (HMAC with a server key): every redemption of one token yields the
 * same successor row, reuse detection keeps a single chain to watch, and a replay after the
 * window still revokes the whole grant.
 */
export function makeRefreshRotationIdempotent(provider: Provider, key: string): void {
  const prototype = provider.RefreshToken.prototype as unknown as TokenPrototype;
  const random = prototype.generateTokenId;
  prototype.generateTokenId = function generateTokenId(this: unknown) {
    // The refresh grant records the token it rotates before it creates the successor.
    const rotated = (Provider.ctx?.oidc?.entities as { RotatedRefreshToken?: { jti?: string } } | undefined)?.RotatedRefreshToken;
    if (!rotated?.jti || rotated === this) return random.call(this);
    // 43 base64url characters, the shape of the provider's own opaque tokens.
    return createHmac('sha256', key).update(`refresh-successor:${rotated.jti}`).digest('base64url');
  };
}
