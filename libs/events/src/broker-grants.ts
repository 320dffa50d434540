import { EVENT_FAMILIES, EVENT_QUEUES, EVENTS_DLX, EVENTS_EXCHANGE, type BusService, type EventQueue } from './event-catalog.js';

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
  /** The service's queue (on-call: `USERS_QUEUE`; webhooks and the dispatcher: `WEBHOOK_QUEUE`); defaults as configured. */
  queue?: string;
  exchange?: string;
  deadLetterExchange?: string;
}

const NOTHING = '^$';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (names: readonly string[]) => (names.length ? `^(${names.map(escape).join('|')})$` : NOTHING);

// The webhooks service declares the dispatcher's queue (see EVENT_QUEUES).
const QUEUE_OF: Partial<Record<BusService, EventQueue>> = {
  'on-call': EVENT_QUEUES['on-call'],
  webhooks: EVENT_QUEUES['webhook-dispatcher'],
  'webhook-dispatcher': EVENT_QUEUES['webhook-dispatcher'],
};

/**
 * What `service` may do and nothing more: publish its own event families to the events
 * exchange, declare, bind and consume its own queue (and its `.dead` queue), and nothing
 * on any other exchange or queue. Exchanges are declared by provisioning: no service may
 * configure (so delete) them.
 */
export function brokerGrant(service: BusService, options: BrokerGrantOptions = {}): BrokerGrant {
  const exchange = options.exchange ?? EVENTS_EXCHANGE;
  const dlx = options.deadLetterExchange ?? EVENTS_DLX;
  const families = EVENT_FAMILIES[service];
  const consumer = QUEUE_OF[service];
  const queues = consumer ? [options.queue ?? consumer.queue] : [];
  const own = queues.flatMap((q) => [q, `${q}.dead`]);
  const publishes = families.length ? [exchange] : [];
  // Declaring a queue that dead-letters needs read on it and write on the dead-letter
  // exchange; binding needs write on the queue and read on the exchange it binds from.
  return {
    configure: anyOf(own),
    write: anyOf([...publishes, ...own, ...(consumer ? [dlx] : [])]),
    read: anyOf(consumer ? [...queues, exchange, dlx] : []),
    topic: {
      exchange,
      write: families.length ? `^(${families.map(escape).join('|')})\\.[a-z_]+$` : NOTHING,
      read: anyOf(consumer?.bindings ?? []),
    },
  };
}
