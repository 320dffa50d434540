import { ForbiddenError, NotFoundError } from '@firewatch/errors';
import { authorize, type Principal } from '../src/index.js';

const base: Principal = {
  team_id: 1, user_id: 1, role: 'admin', on_call_role: 'admin',
  credential: { type: 'api_key', id: 'k', kind: 'global' },
  capabilities: ['read', 'create', 'update', 'delete'], scopes: null, group_ids: null, record_ids: null,
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

  it('keeps admin-only operations for admins', () => {
    expect(() => authorize({ ...base, role: 'user' }, { ...env, action: 'read', adminOnly: true })).toThrow(ForbiddenError);
  });
});
