// `pnpm bench:webhooks`: end-to-end webhook delivery on a private copy of the system
// (gateway, auth, incident-config, webhooks, BENCH_DISPATCHERS dispatchers, local receiver).
//  1. latency: BENCH_RATE environment creates per second through the gateway for
//     BENCH_DURATION s; latency = arrival at the receiver - the event's occurred_at
//     (stamped inside the write's transaction, just before its commit);
//  2. throughput: BENCH_WRITES creates as fast as BENCH_CONNECTIONS writers go, fanned out
//     to BENCH_ENDPOINTS endpoints; deliveries per second at the receiver.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import {
  backing,
  processEnvs,
  PROCESSES,
  provisionBroker,
  provisionDatabases,
  root,
  SERVICE_ENV,
  SERVICE_NODE_ARGS,
} from '../scripts/dev-env.mjs';
import { waitForHttp } from '../scripts/wait-for.mjs';
import { freePort } from './support.mjs';

// amqplib is the dispatcher's dependency, not the root's.
const amqp = createRequire(path.join(root, 'services/webhook-dispatcher/package.json'))('amqplib');

const num = (name, d) => Number(process.env[name] ?? d);
const rate = num('BENCH_RATE', 100),
  duration = num('BENCH_DURATION', 15),
  writes = num('BENCH_WRITES', 4000);
const connections = num('BENCH_CONNECTIONS', 16),
  endpointCount = num('BENCH_ENDPOINTS', 4),
  dispatchers = num('BENCH_DISPATCHERS', 1);

execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-b',
    'services/webhooks',
    'services/webhook-dispatcher',
    'services/incident-config',
    'gateway',
  ],
  { cwd: root, stdio: 'inherit' },
);
const suffix = `_bench_wh_${process.pid}`;
const ports = { gateway: await freePort(), auth: await freePort(), incidentConfig: await freePort(), webhooks: await freePort() };
const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'b'.repeat(43) });
await provisionDatabases(envs);
await provisionBroker(envs);
const b = backing();
const webhooksDb = envs.webhooks.DATABASE_URL;
envs.gateway.WEBHOOKS_URL = `http://127.0.0.1:${ports.webhooks}`;
const common = {
  DEV_KEY_SEED: 'b'.repeat(43),
  PRINCIPAL_PUBLIC_KEYS: envs.gateway.PRINCIPAL_PUBLIC_KEYS,
  AMQP_URL: b.amqp,
  AMQP_PUBLISHERS: envs['webhook-dispatcher'].AMQP_PUBLISHERS,
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATABASE_URL: webhooksDb,
  WEBHOOK_QUEUE: envs.webhooks.WEBHOOK_QUEUE,
  WEBHOOK_ALLOW_HTTP: 'true',
};
const procs = [
  ...PROCESSES.filter((p) => p.name === 'auth' || p.name === 'incident-config'),
  { name: 'webhooks', entry: 'services/webhooks/dist/src/main.js', env: { ...common, PORT: String(ports.webhooks) } },
  ...(await Promise.all(
    Array.from({ length: dispatchers }, async (_, i) => ({
      name: `dispatcher${i}`,
      entry: 'services/webhook-dispatcher/dist/src/main.js',
      env: { ...common, PORT: String(await freePort()), WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
    })),
  )),
  PROCESSES.find((p) => p.name === 'gateway'),
];
const children = [];
async function cleanup() {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  const client = new pg.Client({ connectionString: `${b.pg}/postgres` });
  await client.connect();
  for (const db of [`firewatch_auth${suffix}`, `firewatch_incident_config${suffix}`, `firewatch_webhooks${suffix}`])
    await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await client.end();
  const conn = await amqp.connect(b.amqp);
  const ch = await conn.createChannel();
  for (const q of envs.queues) await ch.deleteQueue(q).catch(() => undefined);
  await conn.close();
}

const arrivals = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    arrivals.push({ at: Date.now(), body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

const pct = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
try {
  for (const p of procs) {
    const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, path.join(root, p.entry)], {
      cwd: root,
      env: { ...SERVICE_ENV, ...process.env, ...(p.env ?? envs[p.name]) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    await waitForHttp(`http://127.0.0.1:${(p.env ?? envs[p.name]).PORT}/readyz`);
  }
  // Team ids start high and random: other systems on this broker number theirs from 1.
  const auth = new pg.Client({ connectionString: envs.auth.DATABASE_URL });
  await auth.connect();
  await auth.query(`SELECT setval(pg_get_serial_sequence('teams', 'id'), $1)`, [1_000_000 + Math.floor(Math.random() * 1e9)]);
  await auth.end();
  const cli = (...args) =>
    JSON.parse(
      execFileSync(process.execPath, [path.join(root, 'services/auth/dist/src/cli/main.js'), ...args], {
        env: { ...process.env, ...envs.auth },
      }).toString(),
    );
  const boot = cli('bootstrap', '--team-name', 'bench', '--email', 'bench@example.com');
  const key = cli(
    'api-keys',
    'create',
    '--team-id',
    String(boot.team.id),
    '--name',
    'bench',
    '--role',
    'admin',
    '--rate-limit-read',
    '1000000',
    '--rate-limit-write',
    '1000000',
  );
  const token = key.api_key?.token ?? key.token;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const post = (p, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        `${envs.urls.gateway}${p}`,
        { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            res.statusCode === 201
              ? resolve(JSON.parse(Buffer.concat(chunks)))
              : reject(new Error(`${p}: ${res.statusCode} ${Buffer.concat(chunks)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const createEnv = (name) => post('/v1/environments', { data: { type: 'environments', attributes: { name } } });
  await post('/v1/webhooks/endpoints', {
    data: { type: 'webhooks_endpoints', attributes: { name: 'bench-0', url: receiverUrl, event_types: ['environment.created'] } },
  });

  // 1. Latency at a steady rate, one endpoint.
  await Promise.all(Array.from({ length: 50 }, (_, i) => createEnv(`warm-${i}`)));
  await new Promise((r) => setTimeout(r, 2000));
  arrivals.length = 0;
  const total = rate * duration;
  const started = Date.now();
  const pending = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    pending.push(createEnv(`lat-${i}`));
  }
  await Promise.all(pending);
  const deadline = Date.now() + 30_000;
  while (arrivals.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const latencies = arrivals.map((a) => a.at - Date.parse(JSON.parse(a.body).event.occurred_at)).sort((x, y) => x - y);

  // 2. Throughput with fan-out.
  for (let i = 1; i < endpointCount; i++) {
    await post('/v1/webhooks/endpoints', {
      data: { type: 'webhooks_endpoints', attributes: { name: `bench-${i}`, url: receiverUrl, event_types: ['environment.created'] } },
    });
  }
  arrivals.length = 0;
  const expected = writes * endpointCount;
  let next = 0;
  const writeStart = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < writes) await createEnv(`tp-${next++}`);
    }),
  );
  const writeSeconds = (Date.now() - writeStart) / 1000;
  const deadline2 = Date.now() + 120_000;
  while (arrivals.length < expected && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 50));
  const span = (arrivals[arrivals.length - 1].at - arrivals[0].at) / 1000;
  console.log(`\nlatency, commit -> receiver, ${rate}/s for ${duration}s, 1 endpoint, ${dispatchers} dispatcher(s)`);
  console.table({
    latency: {
      delivered: `${latencies.length}/${total}`,
      p50_ms: pct(latencies, 0.5),
      p99_ms: pct(latencies, 0.99),
      max_ms: latencies[latencies.length - 1],
    },
  });
  console.log(
    `throughput: ${writes} writes (${(writes / writeSeconds).toFixed(0)}/s through the gateway, ${connections} writers) x ${endpointCount} endpoints`,
  );
  console.table({
    throughput: {
      delivered: `${arrivals.length}/${expected}`,
      seconds: span.toFixed(2),
      deliveries_per_s: Math.round(arrivals.length / span),
    },
  });
  console.log(`goals: >= 500 deliveries/s; p99 < 250 ms at 100/s`);
} finally {
  receiver.close();
  await cleanup();
}
