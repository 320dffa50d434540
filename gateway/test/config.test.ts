import { ConfigError } from '@firewatch/config';
import { TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { parseGatewayConfig } from '../src/config.js';

const required = {
  PRINCIPAL_SIGNING_KEY: JSON.stringify(TEST_PRINCIPAL_KEYS.privateKey),
  SYSTEM_TOKEN_SECRET: 's'.repeat(32),
  AUTH_SERVICE_URL: 'http://auth:8081/',
};

describe('gateway configuration', () => {
  it('applies the documented defaults', () => {
    expect(parseGatewayConfig(required)).toEqual({
      ...required,
      PRINCIPAL_SIGNING_KEY: TEST_PRINCIPAL_KEYS.privateKey,
      AUTH_SERVICE_URL: 'http://auth:8081',
      PORT: 8080,
      HOST: '0.0.0.0',
      INCIDENT_CONFIG_URL: undefined,
      COMMUNICATIONS_URL: undefined,
      ON_CALL_URL: undefined,
      WEBHOOKS_URL: undefined,
      REDIS_URL: undefined,
      REDIS_KEY_PREFIX: 'firewatch:rl:',
      RATE_LIMIT_INGEST: 1200,
      RATE_LIMIT_ALERT_ACTIONS: 60,
      RATE_LIMIT_READS: 5,
      RATE_LIMIT_WRITES: 3,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      RATE_LIMIT_USER_READS: 10,
      RATE_LIMIT_USER_WRITES: 6,
      RATE_LIMIT_TEAM_READS: 50,
      RATE_LIMIT_TEAM_WRITES: 30,
      CREDENTIAL_CACHE_TTL_MS: 3000,
      AUTH_FAILURES_PER_WINDOW: 60,
      TRUSTED_PROXIES: false,
      BODY_LIMIT_BYTES: 1_048_576,
      UPSTREAM_TIMEOUT_MS: 30_000,
      METRICS_PUBLIC: false,
      METRICS_TOKEN: undefined,
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: 10_000,
    });
  });

  it('strips trailing slashes from upstream URLs and treats empty ones as not deployed', () => {
    const config = parseGatewayConfig({ ...required, ON_CALL_URL: 'http://on-call:8084//', WEBHOOKS_URL: '' });
    expect(config.ON_CALL_URL).toBe('http://on-call:8084');
    expect(config.WEBHOOKS_URL).toBeUndefined();
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      parseGatewayConfig({
        SYSTEM_TOKEN_SECRET: 'short',
        RATE_LIMIT_READS: '0',
        INCIDENT_CONFIG_URL: 'not a url',
        PRINCIPAL_SIGNING_KEY: JSON.stringify(TEST_PRINCIPAL_KEYS.publicKeys.keys[0]),
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.variable).sort()).toEqual([
      'AUTH_SERVICE_URL',
      'INCIDENT_CONFIG_URL',
      'PRINCIPAL_SIGNING_KEY',
      'RATE_LIMIT_READS',
      'SYSTEM_TOKEN_SECRET',
    ]);
  });
});
