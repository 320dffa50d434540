import { createInternalTokens, type Principal } from '../src/index.js';

const principal: Principal = {
  team_id: 7, user_id: null, role: 'user', on_call_role: 'observer',
  credential: { type: 'api_key', id: 'k1', kind: 'global' },
  capabilities: ['read'], scopes: null, group_ids: null, record_ids: null,
};

describe('internal tokens', () => {
  const tokens = createInternalTokens('s'.repeat(32));

  it('round-trips a principal', async () => {
    const token = await tokens.signPrincipal(principal);
    expect(await tokens.verifyPrincipal(token)).toEqual(principal);
  });

  it('refuses tokens signed with another secret, and system tokens as principals', async () => {
    const other = createInternalTokens('o'.repeat(32));
    expect(await tokens.verifyPrincipal(await other.signPrincipal(principal))).toBeNull();
    expect(await tokens.verifyPrincipal(await tokens.signSystem('gateway'))).toBeNull();
    expect(await tokens.verifyPrincipal('garbage')).toBeNull();
    expect(await tokens.verifySystem(await tokens.signSystem('gateway'))).toBe('gateway');
  });

  it('refuses expired tokens', async () => {
    const short = createInternalTokens('s'.repeat(32), { ttlSeconds: 1 });
    const token = await short.signPrincipal(principal, 'fresh-key');
    await new Promise((r) => setTimeout(r, 2100));
    expect(await short.verifyPrincipal(token)).toBeNull();
  });
});
