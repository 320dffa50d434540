import { randomBytes } from 'node:crypto';
import {
  declareEventExchanges,
  declareEventQueue,
  deleteBrokerUser,
  EVENT_CONSUMERS,
  provisionBrokerUser,
  PUBLISHING_SERVICES,
  type BusService,
  type EventTopologyOptions,
  type PublisherUsers,
} from '@firewatch/events';

/** One test broker user: its name and an AMQP URL that logs in as it. */
export interface TestBrokerUser {
  user: string;
  url: string;
}

/** Broker users made for one suite; see {@link createTestBrokerUsers}. */
export interface TestBrokerUsers {
  users: Partial<Record<BusService, TestBrokerUser>>;
  /** The publishing services' users as consumers take them, and as their `AMQP_PUBLISHERS` setting. */
  publishers: PublisherUsers;
  publishersSetting: string;
  /** Deletes the users (not the exchanges, which may be shared). */
  remove(): Promise<void>;
}

/** Options of {@link createTestBrokerUsers}: the exchanges (declared if missing) and each consumer's queue. */
export interface TestBrokerUsersOptions extends Omit<EventTopologyOptions, 'vhost'> {
  /** Each consumer's queue, declared with its bindings as provisioning does; a consumer without one has no queue to start on. */
  queues?: Partial<Record<BusService, string>>;
  /** Prefix of the user names, made unique by default so suites running at once stay apart. */
  prefix?: string;
}

/**
 * Makes a broker user with a service's production rights for each of `services`, under
 * names no other suite uses, and declares the queue named for each consumer among them,
 * through the management API as the test administrator (`TEST_AMQP_MANAGEMENT_URL`), as
 * provisioning does. Call `remove()` in `afterAll`; deleting the queues is the suite's.
 */
export async function createTestBrokerUsers(
  services: readonly BusService[],
  options: TestBrokerUsersOptions = {},
): Promise<TestBrokerUsers> {
  const management = process.env.TEST_AMQP_MANAGEMENT_URL!;
  const prefix = options.prefix ?? `fw-test-${randomBytes(4).toString('hex')}-`;
  await declareEventExchanges(management, options);
  for (const consumer of EVENT_CONSUMERS) {
    const queue = options.queues?.[consumer];
    if (queue && services.includes(consumer)) await declareEventQueue(management, { ...options, consumer, queue });
  }
  const users: Partial<Record<BusService, TestBrokerUser>> = {};
  const made: string[] = [];
  try {
    for (const service of services) {
      const user = `${prefix}${service}`;
      const password = randomBytes(16).toString('hex');
      made.push(user);
      await provisionBrokerUser(management, { ...options, service, user, password, queue: options.queues?.[service] });
      const url = new URL(process.env.TEST_AMQP_URL!);
      url.username = user;
      url.password = password;
      users[service] = { user, url: url.toString() };
    }
  } catch (err) {
    for (const user of made) await deleteBrokerUser(management, user).catch(() => undefined);
    throw err;
  }
  const publishers = Object.fromEntries(PUBLISHING_SERVICES.flatMap((s) => (users[s] ? [[s, users[s].user]] : [])));
  return {
    users,
    publishers,
    publishersSetting: Object.entries(publishers)
      .map(([service, user]) => `${service}=${user}`)
      .join(','),
    async remove() {
      for (const user of made) await deleteBrokerUser(management, user);
    },
  };
}
