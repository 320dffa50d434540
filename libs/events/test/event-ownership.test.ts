import {
  brokerGrant,
  BUS_SERVICES,
  EVENT_FAMILIES,
  EVENT_QUEUES,
  EVENT_TYPES,
  eventOwner,
  INTERNAL_EVENT_TYPES,
  publisherRefusal,
  PUBLISHING_SERVICES,
} from '../src/index.js';

describe('event ownership', () => {
  it('gives every event type exactly one publishing service, and the dispatcher none', () => {
    const families = BUS_SERVICES.flatMap((s) => EVENT_FAMILIES[s]);
    expect(new Set(families).size).toBe(families.length);
    for (const type of [...EVENT_TYPES, ...INTERNAL_EVENT_TYPES]) expect(PUBLISHING_SERVICES).toContain(eventOwner(type));
    expect(EVENT_FAMILIES['webhook-dispatcher']).toEqual([]);
    expect(PUBLISHING_SERVICES).not.toContain('webhook-dispatcher');
    expect(INTERNAL_EVENT_TYPES.map(eventOwner)).toEqual([...Array(3).fill('auth'), ...Array(9).fill('on-call')]);
    expect(
      ['incident.resolved', 'shift.started', 'webhooks_endpoint.updated', 'communications_stage.deleted', 'api_key.created'].map(
        eventOwner,
      ),
    ).toEqual(['incident-config', 'on-call', 'webhooks', 'communications', 'auth']);
    expect(eventOwner('user.renamed')).toBeUndefined();
    expect(eventOwner('nothing')).toBeUndefined();
  });

  it('takes a message only from the user of the service owning its type', () => {
    const publishers = { auth: 'fw-auth', 'incident-config': 'fw-ic' };
    expect(publisherRefusal('fw-auth', 'user.deleted', publishers)).toBeNull();
    expect(publisherRefusal('fw-ic', 'user.deleted', publishers)).toBe('published by fw-ic, not by auth');
    expect(publisherRefusal(undefined, 'user.deleted', publishers)).toBe('no user-id');
    expect(publisherRefusal('fw-auth', 'user.renamed', publishers)).toBe('type outside the catalog');
    // A service missing from the map speaks for nothing.
    expect(publisherRefusal('fw-auth', 'schedule.created', publishers)).toBe('published by fw-auth, not by on-call');
  });
});

describe('broker grants', () => {
  it('let a publisher write its own families to the events exchange and touch no queue', () => {
    expect(brokerGrant('auth')).toEqual({
      configure: '^$',
      write: '^(firewatch\\.events)$',
      read: '^$',
      topic: { exchange: 'firewatch.events', write: '^(user|api_key|group)\\.[a-z_]+$', read: '^$' },
    });
    const topic = new RegExp(brokerGrant('incident-config').topic.write);
    expect(topic.test('incident.resolved')).toBe(true);
    expect(topic.test('user.deleted')).toBe(false);
    expect(topic.test('incident_event.created')).toBe(true);
  });

  it('let a consumer read its own queue only, and configure, bind or dead-letter nothing; the dispatcher writes nowhere', () => {
    expect(brokerGrant('webhook-dispatcher', { queue: 'wd.x' })).toEqual({
      configure: '^$',
      write: '^$',
      read: '^(wd\\.x)$',
      topic: { exchange: 'firewatch.events', write: '^$', read: '^$' },
    });
    expect(brokerGrant('on-call')).toMatchObject({
      configure: '^$',
      write: '^(firewatch\\.events)$',
      read: '^(on-call\\.users)$',
      topic: { read: '^$' },
    });
    // incident-config reads the groups its owner_group_ids name from a queue of its own.
    expect(brokerGrant('incident-config')).toMatchObject({ configure: '^$', read: '^(incident-config\\.groups)$', topic: { read: '^$' } });
    expect(EVENT_QUEUES['incident-config'].bindings).toEqual(['group.*']);
    // Provisioning declares the dispatcher's queue: the webhooks service has no right on it.
    expect(brokerGrant('webhooks')).toMatchObject({ configure: '^$', write: '^(firewatch\\.events)$', read: '^$' });
  });
});

describe('consumer queues', () => {
  const matches = (pattern: string, key: string) => new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^.]+')}$`).test(key);
  const bound = (key: string) => EVENT_QUEUES['webhook-dispatcher'].bindings.some((p) => matches(p, key));

  it("bind the dispatcher's queue to every type a webhook may subscribe to, and to no internal one", () => {
    expect(EVENT_TYPES.filter((t) => !bound(t))).toEqual([]);
    expect(INTERNAL_EVENT_TYPES.filter(bound)).toEqual([]);
    expect(EVENT_QUEUES['webhook-dispatcher'].bindings).not.toContain('#');
  });
});
