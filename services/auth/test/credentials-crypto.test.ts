import { hashToken, issueToken, tokenMatches, tokenPrefix } from '../src/domain/api-key-token.js';
import { hashPassword, verifyPassword } from '../src/domain/password-hasher.js';

describe('API key tokens', () => {
  it('issues fwk_<prefix>_<secret> tokens whose hash alone verifies them', () => {
    const a = issueToken();
    const b = issueToken();
    expect(a.token).toMatch(/^fwk_[0-9A-Za-z]{10}_[A-Za-z0-9_-]{43}$/);
    expect(a.prefix).not.toBe(b.prefix);
    expect(tokenPrefix(a.token)).toBe(a.prefix);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenMatches(a.token, a.hash)).toBe(true);
    expect(tokenMatches(b.token, a.hash)).toBe(false);
    expect(tokenMatches(a.token, null)).toBe(false);
  });

  it.each(['', 'fwk_', 'fwk_abc_def', `fwk_${'a'.repeat(10)}_${'b'.repeat(10)}`, `xyz_${'a'.repeat(10)}_${'b'.repeat(43)}`])(
    'has no prefix for the malformed token %p',
    (token) => {
      expect(tokenPrefix(token)).toBeNull();
    },
  );
});

describe('passwords', () => {
  it('hashes with scrypt and a per-hash salt, and verifies', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
  });

  it('refuses missing and unreadable hashes', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$N=abc,r=8,p=1$c2FsdA$aGFzaA')).toBe(false);
  });
});
