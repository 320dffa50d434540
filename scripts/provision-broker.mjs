// Declares the events exchanges, every consumer's queue with its dead-letter queue and
// bindings, and creates each service's RabbitMQ user with only its own rights
// (idempotent), through the management API as an administrator:
//   RABBITMQ_ADMIN_URL=http://admin:pw@rabbitmq:15672 \
//   node scripts/provision-broker.mjs auth=amqp://firewatch-auth:pw@rabbitmq:5672 ...
// Each argument is a service's name and its AMQP_URL: that URL's user becomes the service's
// broker user (see libs/events brokerGrant). USERS_QUEUE, GROUPS_QUEUE and WEBHOOK_QUEUE name
// the on-call, incident-config and dispatcher queues when they are not the default. Run by
// `docker compose` once before the services start; `pnpm start` does the same through dev-env.mjs.
//   node scripts/provision-broker.mjs --grants
// prints each service's rights and each consumer's queues and bindings as JSON instead, for
// setups that declare them otherwise (e.g. the RabbitMQ messaging topology operator's
// Permission, TopicPermission, Queue and Binding).
import path from 'node:path';
import { root, withoutCredentials } from './dev-env.mjs';
import { waitForPort } from './wait-for.mjs';

const {
  BUS_SERVICES,
  EVENT_CONSUMERS,
  EVENT_QUEUES,
  brokerGrant,
  consumerQueueTopology,
  declareEventExchanges,
  declareEventQueue,
  provisionBrokerUser,
} = await import(path.join(root, 'libs/events/dist/index.js'));
const queues = {
  'on-call': process.env.USERS_QUEUE || undefined,
  'incident-config': process.env.GROUPS_QUEUE || undefined,
  'webhook-dispatcher': process.env.WEBHOOK_QUEUE || undefined,
};
if (process.argv[2] === '--grants') {
  for (const service of BUS_SERVICES) console.log(JSON.stringify({ service, ...brokerGrant(service, { queue: queues[service] }) }));
  for (const consumer of EVENT_CONSUMERS) {
    const queue = queues[consumer] ?? EVENT_QUEUES[consumer].queue;
    console.log(
      JSON.stringify({ consumer, durable: true, ...consumerQueueTopology({ queue, bindings: EVENT_QUEUES[consumer].bindings }) }),
    );
  }
  process.exit(0);
}

const admin = process.env.RABBITMQ_ADMIN_URL;
const pairs = process.argv.slice(2).length ? process.argv.slice(2) : (process.env.SERVICE_AMQP_URLS ?? '').split(/\s+/).filter(Boolean);
if (!admin || pairs.length === 0) {
  console.error(
    'usage: RABBITMQ_ADMIN_URL=<management API as an administrator> node scripts/provision-broker.mjs <service>=<service AMQP_URL>...',
  );
  process.exit(64);
}
const targets = pairs.map((pair) => {
  const at = pair.indexOf('=');
  const service = pair.slice(0, at);
  if (!BUS_SERVICES.includes(service)) {
    console.error(`${withoutCredentials(pair.slice(at + 1))}: "${service}" is not a service on the bus (${BUS_SERVICES.join(', ')})`);
    process.exit(64);
  }
  const url = new URL(pair.slice(at + 1));
  if (!url.username || !url.password) {
    console.error(`${withoutCredentials(url.toString())}: the ${service} URL needs its user and password`);
    process.exit(64);
  }
  return {
    service,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    vhost: decodeURIComponent(url.pathname.slice(1)) || '/',
    queue: queues[service],
  };
});

try {
  // Managed brokers serve the management API over https, on 443 unless the URL says otherwise.
  await waitForPort(admin, new URL(admin).protocol === 'https:' ? 443 : 15672, 60_000);
} catch {
  console.error(`RabbitMQ's management API does not answer at ${withoutCredentials(admin)}`);
  process.exit(69);
}
// Consumers' queues exist before any event is published, and before their consumers start.
for (const vhost of new Set(targets.map((t) => t.vhost))) {
  await declareEventExchanges(admin, { vhost });
  for (const consumer of EVENT_CONSUMERS) await declareEventQueue(admin, { consumer, queue: queues[consumer], vhost });
}
for (const target of targets) {
  await provisionBrokerUser(admin, target);
  console.log(JSON.stringify({ provisioned: target.service, user: target.user, vhost: target.vhost }));
}
