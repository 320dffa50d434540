import { ForbiddenError, NotFoundError } from '@firewatch/errors';
import { authorize, describePermission, type Principal } from '../src/index.js';

const base: Principal = {
  team_id: 1,
  user_id: 1,
  role: 'admin',
  on_call_role: 'admin',
  credential: { type: 'api_key', id: 'k', kind: 'global' },
  capabilities: ['read', 'create', 'update', 'delete'],
  scopes: null,
  group_ids: null,
  record_ids: null,
};
const env = { scope: 'ir.environments', side: 'ir' as const };

describe('authorize', () => {
  it('lets an unrestricted admin key do anything', () => {
    expect(() => authorize(base, { ...env, action: 'delete' })).not.toThrow();
  });

  it('refuses a capability the key lacks', () => {
    expect(() => authorize({ ...base, capabilities: ['read'] }, { ...env, action: 'create' })).toThrow(ForbiddenError);
  });

  it('lets observers read but not write, even with a write scope', () => {
    const observer = { ...base, role: 'observer' as const, scopes: ['ir.environments:write'] };
    expect(() => authorize(observer, { ...env, action: 'read' })).not.toThrow();
    expect(() => authorize(observer, { ...env, action: 'create' })).toThrow(ForbiddenError);
  });

  it('limits OAuth tokens to their scopes', () => {
    const reader = { ...base, scopes: ['ir.environments:read'] };
    expect(() => authorize(reader, { ...env, action: 'read' })).not.toThrow();
    expect(() => authorize(reader, { ...env, action: 'create' })).toThrow(ForbiddenError);
    expect(() => authorize(reader, { scope: null, side: 'ir', action: 'read' })).toThrow(ForbiddenError);
    expect(() => authorize({ ...base, scopes: ['ir.all'] }, { scope: null, side: 'ir', action: 'read' })).not.toThrow();
    expect(() => authorize({ ...base, scopes: ['ir.all'] }, { scope: 'oc.alerts', side: 'oc', action: 'read' })).toThrow(ForbiddenError);
  });

  it('uses the on-call role for on-call resources', () => {
    const p = { ...base, role: 'admin' as const, on_call_role: 'observer' as const };
    expect(() => authorize(p, { scope: 'oc.alerts', side: 'oc', action: 'update' })).toThrow(ForbiddenError);
  });

  it('answers 404 for records outside a record-scoped key', () => {
    const p = { ...base, record_ids: ['a'] };
    expect(() => authorize(p, { ...env, action: 'read', recordId: 'a' })).not.toThrow();
    expect(() => authorize(p, { ...env, action: 'read', recordId: 'b' })).toThrow(NotFoundError);
    expect(() => authorize(p, { ...env, action: 'create' })).toThrow(ForbiddenError);
  });

  it('lets a record-scoped key only read without a record id, never change', () => {
    const p = { ...base, record_ids: ['a'] };
    expect(() => authorize(p, { ...env, action: 'read' })).not.toThrow();
    for (const action of ['update', 'delete'] as const) {
      expect(() => authorize(p, { ...env, action })).toThrow(ForbiddenError);
    }
  });

  it('refuses record- and group-scoped keys where an unrestricted credential is needed', () => {
    const perm = { scope: null, side: 'ir' as const, adminOnly: true, unrestricted: true };
    expect(() => authorize(base, { ...perm, action: 'update' })).not.toThrow();
    for (const restricted of [{ record_ids: ['a'] }, { group_ids: ['g'] }]) {
      for (const action of ['read', 'create', 'update', 'delete'] as const) {
        expect(() => authorize({ ...base, ...restricted }, { ...perm, action })).toThrow(ForbiddenError);
      }
    }
  });

  it('confines group keys to records their groups own, where records have owner groups', () => {
    const p = { ...base, group_ids: ['g1', 'g2'] };
    expect(() => authorize(p, { ...env, action: 'update', ownerGroupIds: ['g2', 'g9'] })).not.toThrow();
    expect(() => authorize(p, { ...env, action: 'read', ownerGroupIds: ['g9'] })).toThrow(NotFoundError);
    expect(() => authorize(p, { ...env, action: 'delete', ownerGroupIds: null })).toThrow(NotFoundError);
    expect(() => authorize(p, { ...env, action: 'create', ownerGroupIds: ['g9'] })).toThrow(ForbiddenError);
    expect(() => authorize(p, { ...env, action: 'create', ownerGroupIds: ['g1'] })).not.toThrow();
    // Resources without owner groups: group keys act team-wide.
    expect(() => authorize(p, { ...env, action: 'update' })).not.toThrow();
    // Keys without groups are not confined by owner groups.
    expect(() => authorize(base, { ...env, action: 'update', ownerGroupIds: ['g9'] })).not.toThrow();
  });

  it("asks OAuth tokens for `all` where a side's meta scope is not enough", () => {
    const perm = { scope: null, side: 'ir' as const, action: 'read' as const, allScope: true };
    expect(() => authorize(base, perm)).not.toThrow();
    expect(() => authorize({ ...base, scopes: ['all'] }, perm)).not.toThrow();
    for (const scopes of [['ir.all'], ['ir.all', 'oc.all'], ['ir.incidents:write']]) {
      expect(() => authorize({ ...base, scopes }, perm)).toThrow(
        expect.objectContaining({ code: 'insufficient_scope', detail: expect.stringContaining(' all.') }),
      );
    }
  });

  it('describes what a permission demands beyond role and capability', () => {
    expect(describePermission(env)).toBeUndefined();
    expect(describePermission({ scope: null, side: 'ir', adminOnly: true, unrestricted: true, allScope: true })).toBe(
      'Needs the admin role, a credential limited by neither records nor groups and, for OAuth tokens, the `all` scope.',
    );
    expect(describePermission({ scope: null, side: 'ir', adminOnly: true })).toBe(
      'Needs the admin role and, for OAuth tokens, the `all` or `ir.all` scope.',
    );
  });

  it('keeps admin-only operations for admins', () => {
    expect(() => authorize({ ...base, role: 'user' }, { ...env, action: 'read', adminOnly: true })).toThrow(ForbiddenError);
  });
});
