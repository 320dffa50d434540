import { brokerGrant, type BrokerGrantOptions } from './broker-grants.js';
import { consumerQueueTopology } from './consumer-queue.js';
import { EVENT_QUEUES, EVENTS_DLX, EVENTS_EXCHANGE, type BusService, type EventConsumer } from './event-catalog.js';

/** A service's broker user as {@link provisionBrokerUser} makes it. */
export interface BrokerUserSpec extends BrokerGrantOptions {
  service: BusService;
  user: string;
  password: string;
  /** Default `/`. */
  vhost?: string;
}

/** Where the events exchanges are: tests use private ones. */
export interface EventTopologyOptions {
  /** Default `/`. */
  vhost?: string;
  exchange?: string;
  deadLetterExchange?: string;
}

type Call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<unknown>;

const enc = encodeURIComponent;

// fetch refuses URLs with credentials: they travel as Basic authentication, and never in an error.
function managementApi(managementUrl: string): Call {
  const url = new URL(managementUrl);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  const base = url.toString().replace(/\/+$/, '');
  return async (method, path, body) => {
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.ok) return method === 'GET' ? res.json() : undefined;
    if (method === 'DELETE' && res.status === 404) return undefined;
    throw new Error(
      `RabbitMQ management API at ${base}: ${method} /api/${path} answered ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`,
    );
  };
}

/**
 * Declares the events exchange and its dead-letter exchange (durable, idempotent) through
 * the RabbitMQ management HTTP API, as an administrator: services only check that they
 * exist, since their users may not configure exchanges.
 */
export async function declareEventExchanges(managementUrl: string, options: EventTopologyOptions = {}): Promise<void> {
  const call = managementApi(managementUrl);
  const vhost = enc(options.vhost ?? '/');
  const exchange = { durable: true, auto_delete: false, internal: false, arguments: {} };
  await call('PUT', `exchanges/${vhost}/${enc(options.exchange ?? EVENTS_EXCHANGE)}`, { ...exchange, type: 'topic' });
  await call('PUT', `exchanges/${vhost}/${enc(options.deadLetterExchange ?? EVENTS_DLX)}`, { ...exchange, type: 'direct' });
}

/** Options of {@link declareEventQueue}. */
export interface EventQueueSpec extends EventTopologyOptions {
  consumer: EventConsumer;
  /** Default `EVENT_QUEUES[consumer].queue`. */
  queue?: string;
}

interface Binding {
  routing_key: string;
  properties_key: string;
}

/**
 * Declares a consumer's queue, its `.dead` queue and their bindings (`EVENT_QUEUES`)
 * through the management API as an administrator, since consumers may only read their
 * queue. Idempotent; a binding on the events exchange that the catalog no longer names
 * is removed after the new ones are made, so no event falls between the two. RabbitMQ
 * refuses (400) to change the arguments of a queue that exists.
 */
export async function declareEventQueue(managementUrl: string, spec: EventQueueSpec): Promise<void> {
  const call = managementApi(managementUrl);
  const vhost = enc(spec.vhost ?? '/');
  const exchange = spec.exchange ?? EVENTS_EXCHANGE;
  const { queue: defaultQueue, bindings } = EVENT_QUEUES[spec.consumer];
  const queue = spec.queue ?? defaultQueue;
  const topology = consumerQueueTopology({ queue, bindings, exchange, deadLetterExchange: spec.deadLetterExchange });
  for (const q of topology.queues) {
    await call('PUT', `queues/${vhost}/${enc(q.name)}`, { durable: true, auto_delete: false, arguments: q.arguments });
  }
  for (const b of topology.bindings) {
    await call('POST', `bindings/${vhost}/e/${enc(b.exchange)}/q/${enc(b.queue)}`, { routing_key: b.routingKey, arguments: {} });
  }
  const path = `bindings/${vhost}/e/${enc(exchange)}/q/${enc(queue)}`;
  for (const stale of (await call('GET', path)) as Binding[]) {
    if (!bindings.includes(stale.routing_key)) await call('DELETE', `${path}/${enc(stale.properties_key)}`);
  }
}

/**
 * Creates or updates a service's broker user (no tags: neither administrator nor
 * impersonator, so the broker holds its messages' `user-id` to it) with exactly the
 * rights of {@link brokerGrant}, through the RabbitMQ management HTTP API as an
 * administrator (`managementUrl` carries its credentials). Idempotent; a new password
 * replaces the old one.
 */
export async function provisionBrokerUser(managementUrl: string, spec: BrokerUserSpec): Promise<void> {
  const call = managementApi(managementUrl);
  const grant = brokerGrant(spec.service, spec);
  const vhost = enc(spec.vhost ?? '/');
  const user = enc(spec.user);
  await call('PUT', `users/${user}`, { password: spec.password, tags: '' });
  await call('PUT', `permissions/${vhost}/${user}`, { configure: grant.configure, write: grant.write, read: grant.read });
  await call('PUT', `topic-permissions/${vhost}/${user}`, grant.topic);
}

/** Deletes a broker user (and so its rights); a user that does not exist is not an error. */
export async function deleteBrokerUser(managementUrl: string, user: string): Promise<void> {
  await managementApi(managementUrl)('DELETE', `users/${enc(user)}`);
}
