// Prints a `.env` for `docker compose` with every secret the production images require,
// freshly generated: node scripts/compose-env.mjs > .env   (keep it out of version control)
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { principalKeyPair } from './dev-env.mjs';

const random = () => randomBytes(32).toString('base64url');
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const kid = `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
const { PRINCIPAL_SIGNING_KEY, PRINCIPAL_PUBLIC_KEYS } = principalKeyPair();
const values = {
  // The public https URL of the auth server in any real install (behind a TLS proxy).
  ISSUER_URL: 'http://localhost:8081',
  PRINCIPAL_SIGNING_KEY,
  PRINCIPAL_PUBLIC_KEYS,
  SYSTEM_TOKEN_SECRET: random(),
  OIDC_JWKS: JSON.stringify({ keys: [{ ...rsa, kid, alg: 'RS256', use: 'sig' }] }),
  OIDC_COOKIE_KEYS: random(),
  WEBHOOK_SECRET_KEYS: randomBytes(32).toString('base64'),
  SECRET_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
  POSTGRES_PASSWORD: random(),
  AUTH_DB_PASSWORD: random(),
  INCIDENT_CONFIG_DB_PASSWORD: random(),
  COMMUNICATIONS_DB_PASSWORD: random(),
  ON_CALL_DB_PASSWORD: random(),
  WEBHOOKS_DB_PASSWORD: random(),
  // The broker's administrator (provisioning only), then each service's own broker user.
  RABBITMQ_PASSWORD: random(),
  AUTH_AMQP_PASSWORD: random(),
  INCIDENT_CONFIG_AMQP_PASSWORD: random(),
  COMMUNICATIONS_AMQP_PASSWORD: random(),
  ON_CALL_AMQP_PASSWORD: random(),
  WEBHOOKS_AMQP_PASSWORD: random(),
  WEBHOOK_DISPATCHER_AMQP_PASSWORD: random(),
};
// Single quotes keep compose from interpolating the JSON values.
for (const [name, value] of Object.entries(values)) console.log(`${name}='${value}'`);
