/**
 * A principal for component tests that call a service directly, with the gateway's
 * part played by the test. Shaped like @firewatch/auth's Principal; kept structural
 * so this package does not depend on the auth lib.
 */
export function testPrincipal(overrides: Record<string, unknown> = {}) {
  return {
    team_id: 1,
    user_id: 1,
    role: 'admin' as const,
    on_call_role: 'admin' as const,
    credential: { type: 'api_key' as const, id: 'test-key', kind: 'global' as const },
    capabilities: ['read', 'create', 'update', 'delete'] as ('read' | 'create' | 'update' | 'delete')[],
    scopes: null as string[] | null,
    group_ids: null as string[] | null,
    record_ids: null as string[] | null,
    ...overrides,
  };
}
