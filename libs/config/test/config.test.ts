import { z } from 'zod';
import { ConfigError, configIssues, env, keySeedFields, loadConfig, requireKeysOrDevSeed } from '../src/index.js';

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
    const { apiServiceFields } = await import('../src/index.js');
    const schema = z.object({ ...apiServiceFields(8082) });
    const publicKeys = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc' }] };
    const cfg = loadConfig(schema, {
      DATABASE_URL: 'postgres://h/db',
      AMQP_URL: 'amqp://h',
      PRINCIPAL_PUBLIC_KEYS: JSON.stringify(publicKeys),
    });
    expect(cfg).toMatchObject({
      PORT: 8082,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      DB_POOL_MAX: 10,
      SHUTDOWN_GRACE_MS: 10_000,
      PRINCIPAL_PUBLIC_KEYS: publicKeys,
    });
    expect(() => loadConfig(schema, {})).toThrow(/DATABASE_URL.*PRINCIPAL_PUBLIC_KEYS/);
    // Either transport will do: createEventTransport refuses a process with neither.
    expect(cfg.AMQP_URL).toBe('amqp://h');
    expect(cfg.EVENTS_DATABASE_URL).toBeUndefined();
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

describe('JWK variables', () => {
  const keys = z.object({ SIGNING: env.privateJwk(), PUBLIC: env.publicJwks() });
  const pub = { kty: 'OKP', crv: 'Ed25519', x: 'abc', kid: 'k1' };

  it('takes a private JWK and a JWKS or single public JWK', () => {
    const cfg = loadConfig(keys, { SIGNING: JSON.stringify({ ...pub, d: 'secret' }), PUBLIC: JSON.stringify(pub) });
    expect(cfg.SIGNING).toMatchObject({ kid: 'k1', d: 'secret' });
    expect(cfg.PUBLIC).toEqual({ keys: [pub] });
    expect(loadConfig(keys, { SIGNING: JSON.stringify({ ...pub, d: 's' }), PUBLIC: JSON.stringify({ keys: [pub] }) }).PUBLIC).toEqual({
      keys: [pub],
    });
  });

  it.each([
    ['a private key among the public ones', { PUBLIC: JSON.stringify({ keys: [{ ...pub, d: 'secret' }] }) }, /PUBLIC: .*private/],
    ['a public key where the private one belongs', { SIGNING: JSON.stringify(pub) }, /SIGNING/],
    ['a symmetric key', { SIGNING: JSON.stringify({ kty: 'oct', k: 'abc' }) }, /SIGNING/],
    ['text that is not JSON', { PUBLIC: 'not json' }, /PUBLIC: must be JSON/],
    ['an EC private key without y', { SIGNING: JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'abc', d: 's' }) }, /SIGNING: .*y member/],
  ])('refuses %s, naming the variable', (_label, given, message) => {
    const env0 = { SIGNING: JSON.stringify({ ...pub, d: 's' }), PUBLIC: JSON.stringify(pub), ...given };
    expect(() => loadConfig(keys, env0)).toThrow(message);
  });
});

describe('requireKeysOrDevSeed', () => {
  const schema = z
    .object({ KEYS: env.list(), OTHER: z.string().optional(), ...keySeedFields() })
    .superRefine(requireKeysOrDevSeed(['KEYS', 'OTHER'], 'make them with a tool'), { when: () => true });
  const issues = (given: Record<string, string>) => {
    try {
      loadConfig(schema, given);
      return [];
    } catch (err) {
      return (err as ConfigError).issues;
    }
  };

  it('in production, names every key that is not set, whatever the seed', () => {
    expect(issues({ NODE_ENV: 'production', DEV_KEY_SEED: 's'.repeat(32) }).map((i) => i.variable)).toEqual(['KEYS', 'OTHER']);
    expect(issues({ NODE_ENV: 'production', KEYS: 'a', OTHER: 'b' })).toEqual([]);
  });

  it('elsewhere, derives unset keys from DEV_KEY_SEED, and asks for it when missing', () => {
    expect(issues({ DEV_KEY_SEED: 's'.repeat(32) })).toEqual([]);
    expect(issues({ KEYS: 'a', OTHER: 'b' })).toEqual([]);
    expect(issues({ KEYS: 'a' })).toEqual([{ variable: 'DEV_KEY_SEED', message: expect.stringContaining('derive OTHER') }]);
  });
});

describe('configIssues', () => {
  const schema = z.object({ PORT: env.int(8080, 1), NAME: z.string() });

  it('names every problem without throwing, and none when the environment loads', () => {
    expect(
      configIssues(schema, { PORT: 'x' })
        .map((i) => i.variable)
        .sort(),
    ).toEqual(['NAME', 'PORT']);
    expect(configIssues(schema, { NAME: 'n' })).toEqual([]);
  });
});

describe('env.distinctPairs', () => {
  const pairs = z.object({ USERS: env.distinctPairs(['a', 'b'] as const, (n) => `user-${n}`) });

  it('fills names left out with their fallback', () => {
    expect(loadConfig(pairs, {}).USERS).toEqual({ a: 'user-a', b: 'user-b' });
    expect(loadConfig(pairs, { USERS: ' b = x ' }).USERS).toEqual({ a: 'user-a', b: 'x' });
  });

  it('refuses unknown or repeated names, empty values and a value shared by two names', () => {
    for (const bad of ['c=x', 'a=x,a=y', 'a=', 'a', 'a=x=y', 'a=user-b', 'a=x,b=x']) {
      expect(configIssues(pairs, { USERS: bad })).toEqual([{ variable: 'USERS', message: expect.any(String) }]);
    }
  });
});
