import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import { generatePrincipalKeys } from '@firewatch/auth';
import { provisionServiceDatabase } from '@firewatch/db';
import type { BusService } from '@firewatch/events';
import { createTestBrokerUsers } from '@firewatch/service-testing';
import { freePort } from '@firewatch/testing';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// As scripts/dev-env.mjs SERVICE_NODE_ARGS and SERVICE_ENV: the end-to-end tests run the flags
// and the malloc arenas deployments run.
const SERVICE_NODE_ARGS = ['--max-semi-space-size=8', '--max-old-space-size=256', '--liftoff-only'];
const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };
const run = promisify(execFile);

export { freePort };

async function waitReady(url: string, child: ChildProcess, output: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}):\n${output.join('')}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Durable queues bound to `#` would otherwise collect every later event on the broker. */
async function deleteQueues(url: string, queues: string[]): Promise<void> {
  const conn = await amqp.connect(url);
  try {
    for (const q of queues) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(q).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}

export interface RunningSystem {
  gatewayUrl: string;
  /** Set when started with `webhooks: true`. */
  webhooksUrl?: string;
  dispatcherUrls: string[];
  /** Starts a stopped process again (fault tests). */
  restart(name: string): Promise<void>;
  /** Kills a process with SIGKILL (fault tests). */
  kill(name: string): Promise<void>;
  /** Further gateway replicas sharing Redis, for rate-limit tests. */
  gatewayUrls: string[];
  authUrl: string;
  incidentConfigUrl: string;
  onCallUrl: string;
  communicationsUrl: string;
  secret: string;
  env: Record<string, Record<string, string>>;
  /** Runs the firewatch CLI against this system's auth database; parses its JSON output. */
  cli(...args: string[]): Promise<any>;
  stop(): Promise<void>;
}

/**
 * Starts the real, built processes (auth, incident-config, and `gateways` gateway
 * replicas) on free ports with fresh databases, as an operator would run them.
 */
export interface SystemOptions {
  gateways?: number;
  gatewayEnv?: Record<string, string>;
  /** Also start the webhooks service and `dispatchers` webhook-dispatcher replicas. */
  webhooks?: boolean;
  dispatchers?: number;
  dispatcherEnv?: Record<string, string>;
  webhooksEnv?: Record<string, string>;
  /** Broker address for every process (e.g. a TCP proxy a fault test can cut), each logging in as its own user; default TEST_AMQP_URL's. */
  amqpUrl?: string;
  /** Further on-call replicas (`on-call1`, ...) on the same database and queues, e.g. for the shift.started scheduler. */
  onCallReplicas?: number;
  /** More settings of every on-call replica (e.g. SMTP_URL for paging by email). */
  onCallEnv?: Record<string, string>;
  /** More settings of every process (e.g. OTEL_EXPORTER_OTLP_ENDPOINT to trace them all). */
  commonEnv?: Record<string, string>;
}

export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  const pgAdmin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const pgBase = pgAdmin.replace(/\/[^/]*$/, '');
  const suffix = `_e2e_${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(32).toString('base64url');
  const redisPrefix = `fw-e2e-${randomBytes(4).toString('hex')}:`;
  const [authPort, icPort, whPort] = [await freePort(), await freePort(), await freePort()];
  const ocPort = await freePort();
  const cmPort = await freePort();
  // As deployed: each service connects as its own role, which owns only its database.
  const databases = { auth: `fw_auth${suffix}`, ic: `fw_ic${suffix}`, wh: `fw_wh${suffix}`, oc: `fw_oc${suffix}`, cm: `fw_cm${suffix}` };
  const dbUrl: Record<string, string> = {};
  for (const database of Object.values(databases)) {
    const password = randomBytes(12).toString('hex');
    await provisionServiceDatabase(pgAdmin, { database, role: database, password });
    dbUrl[database] = Object.assign(new URL(pgAdmin), { username: database, password, pathname: `/${database}` }).toString();
  }
  const dispatcherPorts = options.webhooks ? await Promise.all(Array.from({ length: options.dispatchers ?? 1 }, freePort)) : [];
  const gatewayPorts = await Promise.all(Array.from({ length: options.gateways ?? 1 }, freePort));
  // The gateway alone holds the private principal key; the services get its public half.
  const principalKeys = await generatePrincipalKeys();
  const systemSecret = randomBytes(32).toString('base64url');
  const common = {
    DEV_KEY_SEED: secret,
    PRINCIPAL_PUBLIC_KEYS: JSON.stringify(principalKeys.publicKeys),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...options.commonEnv,
  };
  // Each system gets its own dispatcher queue: every system publishes to the one firewatch.events exchange.
  const webhookQueue = `webhook-dispatcher${suffix}`;
  // And its own on-call users queue (auth's user.* events), deleted with the system.
  const usersQueue = `on-call.users${suffix}`;
  // And its own incident-config groups queue (auth's group.* events).
  const groupsQueue = `incident-config.groups${suffix}`;
  // As deployed: each process logs in to the broker as its own user, with only its rights,
  // and the consumers' queues are declared beforehand (their users may not).
  const broker = await createTestBrokerUsers(['auth', 'incident-config', 'communications', 'on-call', 'webhooks', 'webhook-dispatcher'], {
    prefix: `fw-e2e-${suffix.slice(5)}-`,
    queues: { 'on-call': usersQueue, 'incident-config': groupsQueue, 'webhook-dispatcher': webhookQueue },
  });
  const amqpAs = (service: BusService) => {
    const url = new URL(broker.users[service]!.url);
    if (options.amqpUrl) Object.assign(url, { host: new URL(options.amqpUrl).host });
    return { AMQP_URL: url.toString() };
  };
  const AMQP_PUBLISHERS = broker.publishersSetting;
  const env: Record<string, Record<string, string>> = {
    auth: {
      ...common,
      ...amqpAs('auth'),
      PORT: String(authPort),
      DATABASE_URL: dbUrl[databases.auth],
      ISSUER_URL: `http://127.0.0.1:${authPort}`,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: redisPrefix,
      SYSTEM_TOKEN_SECRET: systemSecret,
      // Signing and cookie keys are derived from DEV_KEY_SEED (same on every replica);
      // a short refresh-token grace keeps the reuse-detection tests quick (docs/oauth.md).
      OAUTH_REFRESH_GRACE_SECONDS: '2',
    },
    'incident-config': {
      ...common,
      ...amqpAs('incident-config'),
      PORT: String(icPort),
      DATABASE_URL: dbUrl[databases.ic],
      GROUPS_QUEUE: groupsQueue,
      AMQP_PUBLISHERS,
    },
    'on-call': {
      ...common,
      ...amqpAs('on-call'),
      PORT: String(ocPort),
      DATABASE_URL: dbUrl[databases.oc],
      USERS_QUEUE: usersQueue,
      AMQP_PUBLISHERS,
      // The links in pages lead to the gateway, as deployed.
      PUBLIC_URL: `http://127.0.0.1:${gatewayPorts[0]}`,
      ...options.onCallEnv,
    },
    communications: { ...common, ...amqpAs('communications'), PORT: String(cmPort), DATABASE_URL: dbUrl[databases.cm] },
  };
  const procs: { name: string; entry: string; env: Record<string, string>; port: number }[] = [
    { name: 'auth', entry: 'services/auth/dist/src/main.js', env: env.auth, port: authPort },
    { name: 'incident-config', entry: 'services/incident-config/dist/src/main.js', env: env['incident-config'], port: icPort },
    { name: 'on-call', entry: 'services/on-call/dist/src/main.js', env: env['on-call'], port: ocPort },
    { name: 'communications', entry: 'services/communications/dist/src/main.js', env: env.communications, port: cmPort },
  ];
  for (let i = 1; i <= (options.onCallReplicas ?? 0); i++) {
    const port = await freePort();
    procs.push({ name: `on-call${i}`, entry: 'services/on-call/dist/src/main.js', env: { ...env['on-call'], PORT: String(port) }, port });
  }
  if (options.webhooks) {
    env.webhooks = {
      ...common,
      ...amqpAs('webhooks'),
      PORT: String(whPort),
      DATABASE_URL: dbUrl[databases.wh],
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_QUEUE: webhookQueue,
      ...options.webhooksEnv,
    };
    procs.push({ name: 'webhooks', entry: 'services/webhooks/dist/src/main.js', env: env.webhooks, port: whPort });
    dispatcherPorts.forEach((port, i) => {
      env[`dispatcher${i}`] = {
        ...common,
        ...amqpAs('webhook-dispatcher'),
        AMQP_PUBLISHERS,
        PORT: String(port),
        DATABASE_URL: dbUrl[databases.wh],
        // Tests deliver to receivers on loopback over plain HTTP.
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
        WEBHOOK_QUEUE: webhookQueue,
        ...options.dispatcherEnv,
      };
      procs.push({ name: `dispatcher${i}`, entry: 'services/webhook-dispatcher/dist/src/main.js', env: env[`dispatcher${i}`], port });
    });
  }
  gatewayPorts.forEach((port, i) => {
    env[`gateway${i}`] = {
      ...common,
      PORT: String(port),
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: redisPrefix,
      PRINCIPAL_SIGNING_KEY: JSON.stringify(principalKeys.privateKey),
      SYSTEM_TOKEN_SECRET: systemSecret,
      AUTH_SERVICE_URL: `http://127.0.0.1:${authPort}`,
      INCIDENT_CONFIG_URL: `http://127.0.0.1:${icPort}`,
      ON_CALL_URL: `http://127.0.0.1:${ocPort}`,
      COMMUNICATIONS_URL: `http://127.0.0.1:${cmPort}`,
      ...(options.webhooks ? { WEBHOOKS_URL: `http://127.0.0.1:${whPort}` } : {}),
      ...options.gatewayEnv,
    };
    procs.push({ name: `gateway${i}`, entry: 'gateway/dist/main.js', env: env[`gateway${i}`], port });
  });

  const children = new Map<string, ChildProcess>();
  const stopOne = (c: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill(signal);
      setTimeout(() => c.kill('SIGKILL'), 5000).unref();
    });
  const stop = async () => {
    await Promise.all([...children.values()].map((c) => stopOne(c)));
    try {
      const client = new pg.Client({ connectionString: `${pgBase}/postgres` });
      await client.connect();
      for (const db of Object.values(databases)) {
        await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        await client.query(`DROP ROLE IF EXISTS "${db}"`);
      }
      await client.end();
    } finally {
      await dropBrokerState();
    }
  };
  /** Queues left bound to `#` would collect every later event on the broker (deleteQueues). */
  const dropBrokerState = async () => {
    // Every queue the broker users were provisioned with, the dispatcher's too when no dispatcher
    // ran: it is declared and bound to `#` all the same (createTestBrokerUsers).
    const queues = [webhookQueue, usersQueue, groupsQueue];
    await deleteQueues(process.env.TEST_AMQP_URL!, [...queues, ...queues.map((q) => `${q}.dead`)]);
    await broker.remove();
  };
  const startOne = async (p: (typeof procs)[number]) => {
    const output: string[] = [];
    const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, path.join(root, p.entry)], {
      cwd: root,
      env: { ...SERVICE_ENV, ...process.env, ...p.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => output.push(String(d)));
    child.stderr!.on('data', (d) => output.push(String(d)));
    children.set(p.name, child);
    await waitReady(`http://127.0.0.1:${p.port}/readyz`, child, output);
  };
  const byName = (name: string) => {
    const p = procs.find((x) => x.name === name);
    if (!p) throw new Error(`no process ${name}; have ${procs.map((x) => x.name).join(', ')}`);
    return p;
  };
  try {
    for (const p of procs) await startOne(p);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    gatewayUrl: `http://127.0.0.1:${gatewayPorts[0]}`,
    gatewayUrls: gatewayPorts.map((p) => `http://127.0.0.1:${p}`),
    authUrl: `http://127.0.0.1:${authPort}`,
    incidentConfigUrl: `http://127.0.0.1:${icPort}`,
    onCallUrl: `http://127.0.0.1:${ocPort}`,
    communicationsUrl: `http://127.0.0.1:${cmPort}`,
    webhooksUrl: options.webhooks ? `http://127.0.0.1:${whPort}` : undefined,
    dispatcherUrls: dispatcherPorts.map((p) => `http://127.0.0.1:${p}`),
    async restart(name) {
      const child = children.get(name);
      if (child) await stopOne(child);
      await startOne(byName(name));
    },
    async kill(name) {
      const child = children.get(name);
      if (child) await stopOne(child, 'SIGKILL');
    },
    secret,
    env,
    async cli(...args: string[]) {
      const { stdout } = await run(process.execPath, [path.join(root, 'services/auth/dist/src/cli/main.js'), ...args], {
        env: { ...process.env, ...env.auth, LOG_LEVEL: 'warn' },
      });
      return JSON.parse(stdout);
    },
    stop,
  };
}

/** fetch with JSON:API defaults and a parsed body. */
export async function api(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/vnd.api+json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}
