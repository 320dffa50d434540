import { brokerGrant, type BrokerGrantOptions } from './broker-grants.js';
import { EVENTS_DLX, EVENTS_EXCHANGE, type BusService } from './event-catalog.js';

/** A service's broker user as {@link provisionBrokerUser} makes it. */
export interface BrokerUserSpec extends BrokerGrantOptions {
  service: BusService;
  user: string;
  password: string;
  /** Default `/`. */
  vhost?: string;
}

type Call = (method: 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<void>;

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
    if (res.ok || (method === 'DELETE' && res.status === 404)) return;
    throw new Error(`RabbitMQ management API at ${base}: ${method} /api/${path} answered ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`);
  };
}

/**
 * Declares the events exchange and its dead-letter exchange (durable, idempotent) through
 * the RabbitMQ management HTTP API, as an administrator: services only check that they
 * exist, since their users may not configure exchanges.
 */
export async function declareEventExchanges(managementUrl: string, options: { vhost?: string; exchange?: string; deadLetterExchange?: string } = {}): Promise<void> {
  const call = managementApi(managementUrl);
  const vhost = enc(options.vhost ?? '/');
  const exchange = { durable: true, auto_delete: false, internal: false, arguments: {} };
  await call('PUT', `exchanges/${vhost}/${enc(options.exchange ?? EVENTS_EXCHANGE)}`, { ...exchange, type: 'topic' });
  await call('PUT', `exchanges/${vhost}/${enc(options.deadLetterExchange ?? EVENTS_DLX)}`, { ...exchange, type: 'direct' });
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
