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
