import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/index.js';

const schema = z.object({
  PORT: env.port(8080),
  DATABASE_URL: env.url(),
  SECRET: env.secret(),
  DEBUG: env.bool(false),
  HOSTS: env.list(),
});

describe('loadConfig', () => {
  it('applies defaults and coerces values', () => {
    const cfg = loadConfig(schema, {
      DATABASE_URL: 'postgres://localhost/db',
      SECRET: 'x'.repeat(32),
      HOSTS: 'a, b,,c',
    });
    expect(cfg).toEqual({
      PORT: 8080,
      DATABASE_URL: 'postgres://localhost/db',
      SECRET: 'x'.repeat(32),
      DEBUG: false,
      HOSTS: ['a', 'b', 'c'],
    });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: 'abc', SECRET: 'short', DATABASE_URL: '' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).issues.map((i) => i.variable).sort();
    expect(variables).toEqual(['DATABASE_URL', 'PORT', 'SECRET']);
    expect((error as Error).message).toContain('SECRET: must be at least 32 characters');
  });
});

describe('serviceFields', () => {
  it('requires the shared service variables and defaults the rest', async () => {
    const { serviceFields } = await import('../src/index.js');
    const schema = z.object({ ...serviceFields(8082) });
    const cfg = loadConfig(schema, { DATABASE_URL: 'postgres://h/db', AMQP_URL: 'amqp://h', INTERNAL_TOKEN_SECRET: 's'.repeat(32) });
    expect(cfg).toMatchObject({ PORT: 8082, HOST: '0.0.0.0', LOG_LEVEL: 'info', DB_POOL_MAX: 10, SHUTDOWN_GRACE_MS: 10_000 });
    expect(() => loadConfig(schema, {})).toThrow(/DATABASE_URL.*AMQP_URL.*INTERNAL_TOKEN_SECRET|DATABASE_URL/);
  });
});

describe('env.trustedProxies', () => {
  const proxies = z.object({ TRUSTED_PROXIES: env.trustedProxies() });
  const parse = (value: string | undefined) => loadConfig(proxies, { TRUSTED_PROXIES: value }).TRUSTED_PROXIES;

  it('trusts no hop by default', () => {
    expect(parse(undefined)).toBe(false);
    expect(parse('false')).toBe(false);
  });

  it('takes a hop count or a list of addresses and ranges', () => {
    expect(parse('1')).toBe(1);
    expect(parse('10.0.0.0/8, 192.168.1.7,::1/128,loopback')).toEqual(['10.0.0.0/8', '192.168.1.7', '::1/128', 'loopback']);
  });

  it.each(['true', '*', '11', '10.0.0.0/33', 'proxy.internal', '1.2.3.4/8/9'])('refuses %s, naming the variable', (value) => {
    expect(() => parse(value)).toThrow(/TRUSTED_PROXIES/);
  });
});
