import net from 'node:net';

export interface Infrastructure {
  databaseUrl: string;
  /** An administrator's AMQP URL (`guest` locally). */
  amqpUrl: string;
  /** RabbitMQ's management HTTP API as the same administrator, where tests make broker users. */
  amqpManagementUrl: string;
  redisUrl: string;
  /** Stops containers started here; a no-op for services found running. */
  stop(): Promise<void>;
}

function reachable(url: string, defaultPort: number, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

interface Candidate {
  name: string;
  envVar: string;
  local: string;
  port: number;
  container: () => Promise<{ url: string; stop: () => Promise<unknown>; managementUrl?: string }>;
}

const CANDIDATES: Candidate[] = [
  {
    name: 'PostgreSQL',
    envVar: 'DATABASE_URL',
    local: 'postgres://postgres@127.0.0.1:5432/postgres',
    port: 5432,
    container: async () => {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const c = await new PostgreSqlContainer('postgres:16-alpine').start();
      return { url: c.getConnectionUri(), stop: () => c.stop() };
    },
  },
  {
    name: 'RabbitMQ',
    envVar: 'AMQP_URL',
    local: 'amqp://guest:guest@127.0.0.1:5672',
    port: 5672,
    container: async () => {
      const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
      const c = await new RabbitMQContainer('rabbitmq:4-management-alpine').start();
      return { url: c.getAmqpUrl(), stop: () => c.stop(), managementUrl: `http://guest:guest@${c.getHost()}:${c.getMappedPort(15672)}` };
    },
  },
  {
    name: 'Redis',
    envVar: 'REDIS_URL',
    local: 'redis://127.0.0.1:6379',
    port: 6379,
    container: async () => {
      const { RedisContainer } = await import('@testcontainers/redis');
      const c = await new RedisContainer('redis:7-alpine').start();
      return { url: c.getConnectionUrl(), stop: () => c.stop() };
    },
  },
];

// The management API beside a broker: same host and credentials (amqplib's default guest), port 15672.
function managementUrlOf(amqpUrl: string): string {
  const amqp = new URL(amqpUrl);
  const url = new URL(`http://${amqp.hostname}:15672`);
  url.username = amqp.username || 'guest';
  url.password = amqp.password || 'guest';
  return url.toString().replace(/\/$/, '');
}

/**
 * Finds each backing service the tests need: the URL in the environment when set,
 * else the standard local port when something answers there, else a container
 * (when Docker is available), else a failure that says what is missing. RabbitMQ's
 * management API is `TEST_AMQP_MANAGEMENT_URL`, else port 15672 beside the broker with
 * its credentials (`rabbitmq-plugins enable rabbitmq_management`). A service named in
 * `FIREWATCH_TESTS_WITHOUT` (`RabbitMQ,Redis`) is not looked for: its URL is empty.
 */
export async function resolveInfrastructure(env: NodeJS.ProcessEnv = process.env): Promise<Infrastructure> {
  const urls: string[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  let managementUrl: string | undefined;
  // The test command names what this machine lacks; it has left out the suites that need it (scripts/test.mjs).
  const absent = new Set((env.FIREWATCH_TESTS_WITHOUT ?? '').split(',').filter(Boolean));
  for (const c of CANDIDATES) {
    if (absent.has(c.name)) {
      urls.push('');
      continue;
    }
    const given = env[`TEST_${c.envVar}`] ?? env[c.envVar];
    if (given) {
      urls.push(given);
      continue;
    }
    if (await reachable(c.local, c.port)) {
      urls.push(c.local);
      continue;
    }
    try {
      const started = await c.container();
      urls.push(started.url);
      managementUrl ??= started.managementUrl;
      stops.push(started.stop);
    } catch (err) {
      throw new Error(
        `${c.name} is needed by the tests: set ${c.envVar}, run it on 127.0.0.1:${c.port}, ` +
          `or make a Docker engine available for testcontainers (${(err as Error).message})`,
        { cause: err },
      );
    }
  }
  return {
    databaseUrl: urls[0],
    amqpUrl: urls[1],
    redisUrl: urls[2],
    amqpManagementUrl: env.TEST_AMQP_MANAGEMENT_URL ?? managementUrl ?? (urls[1] ? managementUrlOf(urls[1]) : ''),
    stop: async () => {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
