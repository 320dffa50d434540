import { configIssues } from '@firewatch/config';
import { configSchema } from '../src/config.js';

// Only the variables these tests are about; the other required ones are reported too,
// so each test looks at the issues of its own variables.
const issuesOf = (env: Record<string, string>, ...variables: string[]) =>
  configIssues(configSchema, env).filter((i) => variables.includes(i.variable));

describe('TRUST_PROXY', () => {
  const parse = (value: string | undefined) => configSchema.shape.TRUST_PROXY.safeParse(value);

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['10.0.0.0/8,192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['loopback, fd00::/8', ['loopback', 'fd00::/8']],
  ])('reads %s as %j', (value, expected) => {
    expect(parse(value)).toMatchObject({ success: true, data: expected });
  });

  it('refuses true, naming the variable and the alternatives', () => {
    const issues = issuesOf({ TRUST_PROXY: 'true' }, 'TRUST_PROXY');
    expect(issues).toHaveLength(1);
    expect(issues[0].message).toMatch(/hop count or CIDR/);
  });

  it.each(['yes', '10.0.0.0/33', '300.1.1.1', '1.2.3.4/8/9'])('refuses %s', (value) => {
    expect(parse(value).success).toBe(false);
  });
});

describe('OIDC keys in production', () => {
  const KEYS = { OIDC_JWKS: '{"keys":[]}', OIDC_COOKIE_KEYS: 'k'.repeat(43) };

  it('refuses to start without OIDC_JWKS and OIDC_COOKIE_KEYS, naming both', () => {
    const issues = issuesOf({ NODE_ENV: 'production' }, 'OIDC_JWKS', 'OIDC_COOKIE_KEYS');
    expect(issues.map((i) => i.variable).sort()).toEqual(['OIDC_COOKIE_KEYS', 'OIDC_JWKS']);
    expect(issues[0].message).toContain('NODE_ENV=production');
    expect(issuesOf({ NODE_ENV: 'production', OIDC_JWKS: KEYS.OIDC_JWKS }, 'OIDC_JWKS', 'OIDC_COOKIE_KEYS').map((i) => i.variable)).toEqual(
      ['OIDC_COOKIE_KEYS'],
    );
  });

  it('accepts production with both, and derives keys outside production', () => {
    expect(issuesOf({ NODE_ENV: 'production', ...KEYS }, 'OIDC_JWKS', 'OIDC_COOKIE_KEYS')).toEqual([]);
    expect(issuesOf({ NODE_ENV: 'development' }, 'OIDC_JWKS', 'OIDC_COOKIE_KEYS')).toEqual([]);
    expect(issuesOf({}, 'OIDC_JWKS', 'OIDC_COOKIE_KEYS')).toEqual([]);
  });
});
