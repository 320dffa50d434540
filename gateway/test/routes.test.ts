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
    expect(match('/v1/escalation_policies/1/escalation_paths')).toBe('on-call');
    expect(match('/v1/escalation_paths/1/escalation_levels')).toBe('on-call');
    expect(match('/v1/escalation_levels/1')).toBe('on-call');
    expect(match('/v1/oncalls')).toBe('on-call');
    expect(match('/v1/webhooks/endpoints/1')).toBe('webhooks');
    expect(match('/v1/email_addresses/1')).toBe('on-call');
    expect(match('/v1/phone_numbers/1')).toBe('on-call');
    expect(match('/v1/notification_rules/1')).toBe('on-call');
  });

  it("sends a user's contact methods and notification rules to on-call and the rest of /v1/users to auth", () => {
    expect(match('/v1/users/7/email_addresses')).toBe('on-call');
    expect(match('/v1/users/7/phone_numbers')).toBe('on-call');
    expect(match('/v1/users/7/notification_rules')).toBe('on-call');
    expect(match('/v1/users/7/notification_rules/extra')).toBe('on-call');
    expect(match('/v1/users/{user_id}/phone_numbers')).toBe('on-call');
    expect(match('/v1/users')).toBe('auth');
    expect(match('/v1/users/')).toBe('auth');
    expect(match('/v1/users/me')).toBe('auth');
    expect(match('/v1/users/7')).toBe('auth');
    expect(match('/v1/users/7/')).toBe('auth');
    expect(match('/v1/users/7/email_addressesX')).toBe('auth');
    expect(match('/v1/users//email_addresses')).toBe('auth');
    expect(match('/v1/users/7/roles')).toBe('auth');
  });

  // The matcher judges the raw path, which is what is forwarded and what the service's
  // router matches (neither resolves dot segments nor decodes slashes): a crafted path
  // reaches the service its literal segments name, whose router then has no such route.
  it('judges crafted user paths by their literal segments, as the service will', () => {
    expect(match('/v1/users/1/../api_keys')).toBe('auth');
    expect(match('/v1/users/1/email_addresses/../../../api_keys')).toBe('on-call');
    expect(match('/v1/users/1/%2E%2E/email_addresses')).toBe('auth');
    expect(match('/v1/users/1%2Femail_addresses')).toBe('auth');
    expect(match('/v1/users/1/email_addresses%2F..%2Fx')).toBe('auth');
    expect(match('/v1/users/1//email_addresses')).toBe('auth');
    expect(match('/v1//users/1/email_addresses')).toBeUndefined();
    expect(match('//v1/users/1/email_addresses')).toBeUndefined();
    expect(match('/v1/users/1/email_addresses/')).toBe('on-call');
    expect(match('/v1/users/1/Email_Addresses')).toBe('auth');
    expect(match('/v1/Users/1/email_addresses')).toBeUndefined();
    expect(match('/V1/users/1/email_addresses')).toBeUndefined();
  });

  it("sends the teams catalog's properties to incident-config and the rest of /v1/teams to auth", () => {
    expect(match('/v1/teams/properties')).toBe('incident-config');
    expect(match('/v1/teams/properties/')).toBe('incident-config');
    expect(match('/v1/teams')).toBe('auth');
    expect(match('/v1/teams/properties-x')).toBe('auth');
    expect(match('/v1/teams/7')).toBe('auth');
    expect(match('/v1/teams/7/properties')).toBe('auth');
    expect(match('/v1/teams/Properties')).toBe('auth');
  });

  it('routes a nested collection without its parent collection, and nothing else under that parent', () => {
    const only = createRouteMatcher([{ prefix: '/v1/things/{thing_id}/parts', upstream: 'on-call' }]);
    expect(only('/v1/things/1/parts')).toBe('on-call');
    expect(only('/v1/things/1')).toBeUndefined();
    expect(only('/v1/things')).toBeUndefined();
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

  it('keeps every prefix once, each one segment deep, nested once or one fixed sub-collection', () => {
    expect(new Set(ROUTES.map((r) => r.prefix)).size).toBe(ROUTES.length);
    expect(ROUTES).toHaveLength(49);
    expect(() => createRouteMatcher([{ prefix: '/v1/a/b/c', upstream: 'auth' }])).toThrow(/\/v1\/<collection>/);
    expect(() =>
      createRouteMatcher([
        { prefix: '/v1/a/b', upstream: 'auth' },
        { prefix: '/v1/a/b', upstream: 'webhooks' },
      ]),
    ).toThrow(/twice/);
    expect(() => createRouteMatcher([{ prefix: '/v1/a/{id}/b/{c}/d', upstream: 'auth' }])).toThrow(/\/v1\/<collection>/);
    expect(() =>
      createRouteMatcher([
        { prefix: '/v1/a/{id}/b', upstream: 'auth' },
        { prefix: '/v1/a/{a_id}/b', upstream: 'webhooks' },
      ]),
    ).toThrow(/twice/);
    expect(() =>
      createRouteMatcher([
        { prefix: '/v1/a', upstream: 'auth' },
        { prefix: '/v1/a', upstream: 'webhooks' },
      ]),
    ).toThrow(/twice/);
  });
});
