import { createRouteMatcher, ROUTES } from '../src/domain/routes.js';

describe('route table', () => {
  const match = createRouteMatcher();

  it('routes each collection to its owning service', () => {
    expect(match('/v1/api_keys')).toBe('auth');
    expect(match('/v1/oauth_applications/abc')).toBe('auth');
    expect(match('/v1/environments')).toBe('incident-config');
    expect(match('/v1/events/123/services')).toBe('incident-config');
    expect(match('/v1/incident_event_services/123')).toBe('incident-config');
    expect(match('/v1/dashboard_panels/123/duplicate')).toBe('incident-config');
    expect(match('/v1/communications/templates/1')).toBe('communications');
    expect(match('/v1/override_shifts')).toBe('on-call');
    expect(match('/v1/alert_urgencies/1')).toBe('on-call');
    expect(match('/v1/alert_groups/evaluate')).toBe('on-call');
    expect(match('/v1/schedule_rotations/1/schedule_rotation_active_days')).toBe('on-call');
    expect(match('/v1/schedule_rotation_active_days/1')).toBe('on-call');
    expect(match('/v1/schedule_rotation_users/1')).toBe('on-call');
    expect(match('/v1/override_shifts/1')).toBe('on-call');
    expect(match('/v1/webhooks/endpoints/1')).toBe('webhooks');
  });

  it('matches whole path segments only', () => {
    expect(match('/v1/environmentsX')).toBeUndefined();
    expect(match('/v1/environments-old/1')).toBeUndefined();
    expect(match('/v1/shift')).toBeUndefined();
    expect(match('/v1')).toBeUndefined();
    expect(match('/v1/')).toBeUndefined();
    expect(match('/v2/environments')).toBeUndefined();
    expect(match('/environments')).toBeUndefined();
  });

  it('keeps every prefix once and each one segment deep', () => {
    expect(new Set(ROUTES.map((r) => r.prefix)).size).toBe(ROUTES.length);
    expect(ROUTES).toHaveLength(29);
    expect(() => createRouteMatcher([{ prefix: '/v1/a/b', upstream: 'auth' }])).toThrow(/\/v1\/<collection>/);
    expect(() =>
      createRouteMatcher([
        { prefix: '/v1/a', upstream: 'auth' },
        { prefix: '/v1/a', upstream: 'webhooks' },
      ]),
    ).toThrow(/twice/);
  });
});
