import { ConfigError, loadConfig } from '@firewatch/config';
import { configSchema } from '../src/config.js';

const BASE = {
  DATABASE_URL: 'postgres://localhost/auth',
  AMQP_URL: 'amqp://localhost',
  INTERNAL_TOKEN_SECRET: 'x'.repeat(40),
};

function problems(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(configSchema, { ...BASE, ...env });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}

describe('TRUST_PROXY (security review #6)', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['10.0.0.0/8,192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['loopback, fd00::/8', ['loopback', 'fd00::/8']],
  ])('reads %s as %j', (value, expected) => {
    const env = value === undefined ? BASE : { ...BASE, TRUST_PROXY: value };
    expect(loadConfig(configSchema, env).TRUST_PROXY).toEqual(expected);
  });

  it('refuses true, naming the variable and the alternatives', () => {
    const issues = problems({ TRUST_PROXY: 'true' });
    expect(issues).toHaveLength(1);
    expect(issues[0].variable).toBe('TRUST_PROXY');
    expect(issues[0].message).toMatch(/hop.*CIDR|number of proxies/);
  });

  it.each(['yes', '10.0.0.0/33', '300.1.1.1', '1.2.3.4/8/9'])('refuses %s', (value) => {
    expect(problems({ TRUST_PROXY: value }).map((i) => i.variable)).toEqual(['TRUST_PROXY']);
  });
});
