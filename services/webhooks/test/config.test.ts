import { generateKeyPairSync } from 'node:crypto';
import { configIssues, loadConfig } from '@firewatch/config';
import { configSchema } from '../src/config.js';

const pub = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
const BASE = {
  DATABASE_URL: 'postgres://db/webhooks',
  AMQP_URL: 'amqp://broker',
  DEV_KEY_SEED: 'i'.repeat(32),
  PRINCIPAL_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...pub, kid: 'k1', alg: 'EdDSA' }] }),
};
const KEY = Buffer.alloc(32, 5).toString('base64');

const issues = (env: Record<string, string>) => configIssues(configSchema, env);

describe('webhooks configuration', () => {
  it('refuses to start in production without WEBHOOK_SECRET_KEYS, naming the variable', () => {
    for (const env of [
      { ...BASE, NODE_ENV: 'production' },
      { ...BASE, NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: '' },
    ]) {
      expect(issues(env)).toEqual([
        { variable: 'WEBHOOK_SECRET_KEYS', message: expect.stringMatching(/required when NODE_ENV=production/) },
      ]);
    }
    // Named even next to another bad variable, so one start names every problem.
    expect(
      issues({ ...BASE, NODE_ENV: 'production', DB_POOL_MAX: 'many' })
        .map((i) => i.variable)
        .sort(),
    ).toEqual(['DB_POOL_MAX', 'WEBHOOK_SECRET_KEYS']);
  });

  it('accepts production with keys, and a derived key outside production', () => {
    expect(loadConfig(configSchema, { ...BASE, NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: KEY }).WEBHOOK_SECRET_KEYS).toEqual([KEY]);
    expect(loadConfig(configSchema, { ...BASE, NODE_ENV: 'development' }).WEBHOOK_SECRET_KEYS).toEqual([]);
    expect(loadConfig(configSchema, BASE).WEBHOOK_MAX_ENDPOINTS_PER_TEAM).toBe(50);
  });
});
