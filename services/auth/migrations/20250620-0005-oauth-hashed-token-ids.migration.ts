import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';

// The models of HASHED_MODELS (src/data/oidc-payloads.adapter.ts) at the time of writing;
// a migration must not follow later edits of that list.
const MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'RegistrationAccessToken',
  'InitialAccessToken',
];

/**
 * Tokens and codes are stored under SHA-256 of their value, without `jti` in the payload
 * (docs/oauth.md, "Tokens at rest"). Rows written before are rewritten the same way rather
 * than dropped, so refresh tokens (30 days) and their CLIs' logins survive the upgrade.
 */
export const oauthHashedTokenIdsMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw(
      `UPDATE oidc_payloads SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex'), payload = payload - 'jti'
        WHERE model = ANY(?)`,
      [MODELS],
    );
  },
  async down(knex: Knex) {
    // Hashes cannot be turned back into tokens: the old code would find none of them.
    await knex('oidc_payloads').whereIn('model', MODELS).delete();
  },
};
