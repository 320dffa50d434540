import { ConfigError, loadConfig } from '@firewatch/config';
import { configSchema } from '../src/config.js';

const BASE = { DATABASE_URL: 'postgres://db/webhooks', AMQP_URL: 'amqp://broker', DEV_KEY_SEED: 'i'.repeat(32) };
const KEY = Buffer.alloc(32, 5).toString('base64');

describe('dispatcher configuration', () => {
  it('refuses to start in production without WEBHOOK_SECRET_KEYS, naming the variable', () => {
    let error: unknown;
    try {
      loadConfig(configSchema, { ...BASE, NODE_ENV: 'production' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { variable: 'WEBHOOK_SECRET_KEYS', message: expect.stringMatching(/required when NODE_ENV=production/) },
    ]);
    expect(loadConfig(configSchema, { ...BASE, NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: KEY }).WEBHOOK_SECRET_KEYS).toEqual([KEY]);
    expect(loadConfig(configSchema, BASE).WEBHOOK_SECRET_KEYS).toEqual([]);
  });

  it('knows each publishing service by its own broker user (AMQP_PUBLISHERS), and no user for two', () => {
    expect(loadConfig(configSchema, BASE).AMQP_PUBLISHERS).toEqual({
      auth: 'firewatch-auth',
      'incident-config': 'firewatch-incident-config',
      communications: 'firewatch-communications',
      'on-call': 'firewatch-on-call',
      webhooks: 'firewatch-webhooks',
    });
    expect(loadConfig(configSchema, { ...BASE, AMQP_PUBLISHERS: 'auth=fw-a, webhooks=fw-w' }).AMQP_PUBLISHERS).toMatchObject({
      auth: 'fw-a',
      webhooks: 'fw-w',
      'on-call': 'firewatch-on-call',
    });
    for (const bad of ['auth=shared,webhooks=shared', 'auth=firewatch-on-call', 'webhook-dispatcher=x', 'auth', 'auth=', 'auth=a,auth=b']) {
      expect(() => loadConfig(configSchema, { ...BASE, AMQP_PUBLISHERS: bad })).toThrow(/AMQP_PUBLISHERS/);
    }
  });

  it('reads the retention settings', () => {
    expect(loadConfig(configSchema, BASE)).toMatchObject({ WEBHOOK_RETENTION_DAYS: 30, WEBHOOK_PRUNE_INTERVAL_MS: 3_600_000 });
    expect(() => loadConfig(configSchema, { ...BASE, WEBHOOK_RETENTION_DAYS: '0' })).toThrow(/WEBHOOK_RETENTION_DAYS/);
  });
});
