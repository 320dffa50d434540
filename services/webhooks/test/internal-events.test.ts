import { INTERNAL_EVENT_TYPES } from '@firewatch/events';
import { eventTypeResources, subscribes } from '../src/domain/deliveries/event-types.js';

describe('internal events and webhooks', () => {
  it('are never delivered, even to an endpoint that takes every type', () => {
    for (const type of INTERNAL_EVENT_TYPES) {
      expect(subscribes([], type)).toBe(false);
      expect(subscribes([type], type)).toBe(false);
    }
    expect(subscribes([], 'environment.created')).toBe(true);
    // How a person is reached is theirs and on-call admins': an endpoint's incident-side admin may be neither.
    for (const type of ['user_email_address.created', 'user_phone_number.updated', 'user_notification_rule.deleted'])
      expect(subscribes([], type)).toBe(false);
  });

  it('are not listed at GET /v1/webhooks/event_types', () => {
    const names = eventTypeResources().map((r) => r.id);
    for (const type of INTERNAL_EVENT_TYPES) expect(names).not.toContain(type);
  });
});

describe("on-call's alert.notification (issue 24)", () => {
  it('is listed, and delivered to endpoints that take it or every type', () => {
    expect(eventTypeResources().map((r) => r.id)).toContain('alert.notification');
    expect(subscribes(['alert.notification'], 'alert.notification')).toBe(true);
    expect(subscribes([], 'alert.notification')).toBe(true);
    expect(subscribes(['alert.created'], 'alert.notification')).toBe(false);
  });
});
