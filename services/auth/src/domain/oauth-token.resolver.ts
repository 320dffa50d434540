import type { Resolution } from './credential.resolver.js';

/**
 * Seam for OAuth access tokens, tried after API keys (spec 5.1.2). The OAuth server
 * (node-oidc-provider) will look the opaque token up here and map it to a principal
 * whose `scopes` are the granted ones and whose roles are the user's. Until then no
 * token other than an API key resolves.
 */
export type OAuthTokenResolver = (token: string) => Promise<Resolution | null>;

export const resolveOAuthToken: OAuthTokenResolver = async () => null;
