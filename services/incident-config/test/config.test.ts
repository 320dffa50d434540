import { generateKeyPairSync } from 'node:crypto';
import { configIssues, loadConfig } from '@firewatch/config';
import { configSchema } from '../src/config.js';

const pub = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
const BASE = {
  DATABASE_URL: 'postgres://db/incident_config',
  AMQP_URL: 'amqp://broker',
  PRINCIPAL_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...pub, kid: 'k1', alg: 'EdDSA' }] }),
};
const KEY = Buffer.alloc(32, 7).toString('base64');

const issues = (env: Record<string, string>) => configIssues(configSchema, env);

describe('incident-config configuration: the keys sealing secrets', () => {
  it('refuses to start in production without SECRET_ENCRYPTION_KEYS, naming it beside other problems', () => {
    expect(issues({ ...BASE, NODE_ENV: 'production', DEV_KEY_SEED: 'i'.repeat(32) })).toEqual([
      { variable: 'SECRET_ENCRYPTION_KEYS', message: expect.stringMatching(/required when NODE_ENV=production/) },
    ]);
    expect(
      issues({ ...BASE, NODE_ENV: 'production', DB_POOL_MAX: 'many' })
        .map((i) => i.variable)
        .sort(),
    ).toEqual(['DB_POOL_MAX', 'SECRET_ENCRYPTION_KEYS']);
  });

  it('needs DEV_KEY_SEED to derive the key outside production', () => {
    expect(issues(BASE)).toEqual([{ variable: 'DEV_KEY_SEED', message: expect.stringMatching(/SECRET_ENCRYPTION_KEYS/) }]);
    expect(loadConfig(configSchema, { ...BASE, DEV_KEY_SEED: 'i'.repeat(32) }).SECRET_ENCRYPTION_KEYS).toEqual([]);
  });

  it('takes a comma-separated list of keys, the first sealing', () => {
    expect(
      loadConfig(configSchema, { ...BASE, NODE_ENV: 'production', SECRET_ENCRYPTION_KEYS: `${KEY}, ${KEY.replace('B', 'C')}` })
        .SECRET_ENCRYPTION_KEYS,
    ).toEqual([KEY, KEY.replace('B', 'C')]);
  });
});
