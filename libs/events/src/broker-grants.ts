import { EVENT_FAMILIES, EVENT_QUEUES, EVENTS_EXCHANGE, type BusService, type EventConsumer } from './event-catalog.js';

/**
 * A service's rights on the broker, as RabbitMQ takes them: regular expressions over
 * resource names (configure, write, read) and, on the events exchange, over routing keys
 * (topic write: what it may publish; topic read: what it may bind a queue to).
 */
export interface BrokerGrant {
  configure: string;
  write: string;
  read: string;
  topic: { exchange: string; write: string; read: string };
}

/** Names a grant is made over; tests use private ones. */
export interface BrokerGrantOptions {
  /** The consumer's queue (on-call: `USERS_QUEUE`, incident-config: `GROUPS_QUEUE`, the dispatcher: `WEBHOOK_QUEUE`); defaults as configured. */
  queue?: string;
  exchange?: string;
}

const NOTHING = '^$';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (names: readonly string[]) => (names.length ? `^(${names.map(escape).join('|')})$` : NOTHING);
const isConsumer = (service: BusService): service is EventConsumer => service in EVENT_QUEUES;

/**
 * What `service` may do and nothing more: publish its own event families to the events
 * exchange, and consume its own queue. Provisioning declares the exchanges, the queues
 * and their bindings as an administrator, so no service may configure anything (declare,
 * bind, delete), write to a queue or to the dead-letter exchange (the broker
 * dead-letters by itself), or read (consume, purge, bind from) anything but its queue.
 */
export function brokerGrant(service: BusService, options: BrokerGrantOptions = {}): BrokerGrant {
  const exchange = options.exchange ?? EVENTS_EXCHANGE;
  const families = EVENT_FAMILIES[service];
  return {
    configure: NOTHING,
    write: families.length ? anyOf([exchange]) : NOTHING,
    read: isConsumer(service) ? anyOf([options.queue ?? EVENT_QUEUES[service].queue]) : NOTHING,
    topic: {
      exchange,
      write: families.length ? `^(${families.map(escape).join('|')})\\.[a-z_]+$` : NOTHING,
      read: NOTHING,
    },
  };
}
