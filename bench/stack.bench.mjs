// `pnpm bench:stack`: the whole request path against a bare Node server in one run (issue 13).
// On a private copy of the system (auth, incident-config with its outbox relay, webhooks,
// one dispatcher, gateway) plus a bare `http` server in its own process answering a
// document of the same size as GET /v1/environments/{id}. Each target gets a warm-up,
// then each is measured in turn under the same load; reports req/s, p50, p99, non-2xx,
// ratios, CPU per request and peak resident memory of every process.
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 [BENCH_PROFILE=/tmp/prof] [BENCH_TARGETS=bare,env_get_gateway] pnpm bench:stack
// BENCH_PROFILE=<dir>: gateway and incident-config run with --cpu-prof into <dir>; their
// top self-time functions are printed after they exit. BENCH_TARGETS limits the measured
// targets (comma-separated names from the table), so a profile can hold only the lookup.
// BENCH_PERF=<dir>: `perf record -a -g` of the whole machine during each measured target into
// <dir>/<target>.data, gateway and incident-config with --perf-basic-prof so JS frames resolve.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
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
import { backingCpuSeconds, backingCpuSpent, cpuSeconds, freePort, principalAsGateway, printCpuProfiles } from './support.mjs';

// amqplib is the dispatcher's dependency, not the root's.
const amqp = createRequire(path.join(root, 'services/webhook-dispatcher/package.json'))('amqplib');

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
const only = process.env.BENCH_TARGETS ? new Set(process.env.BENCH_TARGETS.split(',')) : undefined;
const perfDir = process.env.BENCH_PERF ? path.resolve(process.env.BENCH_PERF) : undefined;
const profileArgs = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(perfDir ? ['--perf-basic-prof'] : [])];
if (perfDir) fs.mkdirSync(perfDir, { recursive: true });
if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
const profileStart = Date.now();

execFileSync(
  process.execPath,
  [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-b',
    'services/auth',
    'services/webhooks',
    'services/webhook-dispatcher',
    'services/incident-config',
    'gateway',
  ],
  { cwd: root, stdio: 'inherit' },
);
const suffix = `_bench_stack_${process.pid}`;
const ports = {
  gateway: await freePort(),
  auth: await freePort(),
  incidentConfig: await freePort(),
  webhooks: await freePort(),
  bare: await freePort(),
};
const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'b'.repeat(43) });
await provisionDatabases(envs);
await provisionBroker(envs);
const b = backing();
const common = {
  DEV_KEY_SEED: 'b'.repeat(43),
  PRINCIPAL_PUBLIC_KEYS: envs.gateway.PRINCIPAL_PUBLIC_KEYS,
  AMQP_URL: b.amqp,
  AMQP_PUBLISHERS: envs['webhook-dispatcher'].AMQP_PUBLISHERS,
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATABASE_URL: envs.webhooks.DATABASE_URL,
  WEBHOOK_QUEUE: envs.webhooks.WEBHOOK_QUEUE,
  WEBHOOK_ALLOW_HTTP: 'true',
};
const entry = (name) => PROCESSES.find((p) => p.name === name).entry;
const procs = [
  { name: 'auth', entry: entry('auth'), env: envs.auth },
  { name: 'incident-config', entry: entry('incident-config'), env: envs['incident-config'], nodeArgs: profileArgs },
  { name: 'webhooks', entry: entry('webhooks'), env: { ...common, PORT: String(ports.webhooks) } },
  {
    name: 'dispatcher',
    entry: entry('webhook-dispatcher'),
    env: { ...common, PORT: String(await freePort()), WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
  },
  { name: 'gateway', entry: entry('gateway'), env: envs.gateway, nodeArgs: profileArgs },
];

const children = [];
async function cleanup() {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(
    children.map((c) =>
      c.exitCode === null && c.signalCode === null
        ? new Promise((r) => {
            c.once('exit', r);
            setTimeout(r, 10_000);
          })
        : undefined,
    ),
  );
  const client = new pg.Client({ connectionString: `${b.pg}/postgres` });
  await client.connect();
  for (const db of envs.databases.map((d) => d.database)) await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await client.end();
  const conn = await amqp.connect(b.amqp);
  const ch = await conn.createChannel();
  for (const q of envs.queues) await ch.deleteQueue(q).catch(() => undefined);
  await conn.close();
}

// The webhook receiver lives in this process: it only counts.
const delivered = new Set();
let deliveries = 0;
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    deliveries++;
    try {
      // Every `id` in the body: the created environment's is among them, wherever the payload puts it.
      const body = JSON.parse(Buffer.concat(chunks).toString());
      if (body.event?.type === 'environment.created')
        JSON.stringify(body, (k, v) => {
          if (k === 'id') delivered.add(String(v));
          return v;
        });
    } catch {
      /* counted in deliveries only */
    }
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

// /proc readings: CPU seconds (utime+stime) and resident memory in MB.
const cpu = cpuSeconds;
const memMb = (pid, field) => {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

try {
  for (const p of procs) {
    const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, ...(p.nodeArgs ?? []), path.join(root, p.entry)], {
      cwd: root,
      env: { ...SERVICE_ENV, ...process.env, ...p.env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.benchName = p.name;
    children.push(child);
    await waitForHttp(`http://127.0.0.1:${p.env.PORT}/readyz`);
  }
  // Team ids start high and random: other systems on this broker number theirs from 1.
  const authDb = new pg.Client({ connectionString: envs.auth.DATABASE_URL });
  await authDb.connect();
  await authDb.query(`SELECT setval(pg_get_serial_sequence('teams', 'id'), $1)`, [1_000_000 + Math.floor(Math.random() * 1e9)]);
  await authDb.end();
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
  const auth = { authorization: `Bearer ${token}` };
  const jsonApi = { ...auth, 'content-type': 'application/vnd.api+json' };
  const post = async (p, body) => {
    const r = await fetch(`${envs.urls.gateway}${p}`, { method: 'POST', headers: jsonApi, body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  await post('/v1/webhooks/endpoints', {
    data: { type: 'webhooks_endpoints', attributes: { name: 'bench', url: receiverUrl, event_types: ['environment.created'] } },
  });
  const created = await post('/v1/environments', { data: { type: 'environments', attributes: { name: 'Production' } } });
  const id = created.data.id;
  for (let i = 0; i < 100; i += 10)
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        post('/v1/environments', { data: { type: 'environments', attributes: { name: `list-${i + j}` } } }),
      ),
    );
  for (let i = 0; i < 20; i++) await post('/v1/services', { data: { type: 'services', attributes: { name: `service-${i}` } } });

  // The bare server answers exactly the bytes of the gateway's answer to the lookup.
  const lookup = await fetch(`${envs.urls.gateway}/v1/environments/${id}`, { headers: auth });
  const doc = await lookup.text();
  const bareSource = `const body = Buffer.from(${JSON.stringify(doc)});
require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': body.length }); res.end(body); })
  .listen(${ports.bare}, '127.0.0.1', () => console.log('ready'));`;
  const bare = spawn(process.execPath, ['-e', bareSource], { stdio: ['ignore', 'pipe', 'inherit'] });
  bare.benchName = 'bare';
  children.push(bare);
  await new Promise((r) => bare.stdout.once('data', r));

  // The direct runs carry a principal signed as the gateway would sign it.
  const principal = await principalAsGateway(envs, token, { audience: 'incident-config', method: 'GET', path: `/v1/environments/${id}` });

  const servicesList = '/v1/services?filter[name][not_eq]=x&sort=-created_at&page[size]=20';
  const writes = [];
  let writeNo = 0;
  const targets = {
    bare: { url: `http://127.0.0.1:${ports.bare}/v1/environments/${id}` },
    env_get_gateway: { url: `${envs.urls.gateway}/v1/environments/${id}`, headers: auth },
    env_get_direct: { url: `${envs.urls.incidentConfig}/v1/environments/${id}`, headers: { 'x-firewatch-principal': principal } },
    env_list_100: { url: `${envs.urls.gateway}/v1/environments?page[size]=100`, headers: auth },
    services_filtered: { url: `${envs.urls.gateway}${servicesList}`, headers: auth },
    env_create: {
      url: `${envs.urls.gateway}/v1/environments`,
      requests: [
        {
          method: 'POST',
          headers: jsonApi,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ data: { type: 'environments', attributes: { name: `w-${process.pid}-${writeNo++}` } } }),
          }),
          onResponse: (status, body) => {
            if (status === 201) writes.push(JSON.parse(body).data.id);
          },
        },
      ],
    },
  };
  for (const name of Object.keys(targets)) if (only && !only.has(name) && name !== 'bare') delete targets[name];
  for (const [name, t] of Object.entries(targets)) {
    const r = await fetch(t.url, { headers: t.headers });
    if (!t.requests && r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`);
  }
  const run = (t, seconds) =>
    new Promise((resolve, reject) => {
      autocannon({ url: t.url, connections, duration: seconds, headers: t.headers, requests: t.requests }, (err, result) =>
        err ? reject(err) : resolve(result),
      );
    });
  for (const t of Object.values(targets)) await run(t, Math.min(3, duration)); // warm-up (writes too: they are counted below only from the measured run)
  await new Promise((r) => setTimeout(r, 2000));
  writes.length = 0;
  delivered.clear();

  const named = children.map((c) => [c.benchName, c.pid]);
  // Everything else that works for a request on this box: the shared backing services
  // (all their processes, summed) and this process, which runs autocannon.
  const shared = () => {
    const own = process.cpuUsage();
    return { bench: (own.user + own.system) / 1e6, backing: backingCpuSeconds() };
  };
  const load = {},
    cpuPerRequest = {},
    peakRss = {};
  for (const [name, t] of Object.entries(targets)) {
    const before = Object.fromEntries(named.map(([n, pid]) => [n, cpu(pid)]));
    const sharedBefore = shared();
    const peak = Object.fromEntries(named.map(([n]) => [n, 0]));
    const sampler = setInterval(() => {
      for (const [n, pid] of named) peak[n] = Math.max(peak[n], memMb(pid, 'VmRSS') || 0);
    }, 200);
    // BENCH_PERF=<dir>: an on-CPU profile of the whole machine (kernel included) per target.
    const perf =
      perfDir && spawn('perf', ['record', '-a', '-g', '-F', '499', '-o', path.join(perfDir, `${name}.data`)], { stdio: 'ignore' });
    const perfDone =
      perf &&
      new Promise((resolve) => {
        perf.once('close', resolve);
        perf.once('error', (err) => {
          console.error(`perf record failed: ${err.message}`);
          resolve();
        });
      });
    const r = await run(t, duration);
    if (perf) {
      if (perf.exitCode === null && perf.signalCode === null) perf.kill('SIGINT');
      await perfDone;
    }
    clearInterval(sampler);
    load[name] = {
      rps: r.requests.average,
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      requests: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
    const sharedAfter = shared();
    const us = (seconds) => Math.round((seconds / r.requests.total) * 1e6);
    cpuPerRequest[name] = {
      ...Object.fromEntries(named.map(([n, pid]) => [`${n}_us`, us(cpu(pid) - before[n])])),
      ...Object.fromEntries(Object.entries(backingCpuSpent(sharedBefore.backing, sharedAfter.backing)).map(([n, s]) => [`${n}_us`, us(s)])),
      bench_us: us(sharedAfter.bench - sharedBefore.bench),
    };
    cpuPerRequest[name].all_us = Object.values(cpuPerRequest[name]).reduce((a, b) => a + b, 0);
    peakRss[name] = Object.fromEntries(named.map(([n]) => [`${n}_mb`, Number(peak[n].toFixed(1))]));
  }
  let deliveryLine = '';
  if (targets.env_create) {
    const deadline = Date.now() + 120_000;
    const missing = () => writes.filter((w) => !delivered.has(String(w))).length;
    while (missing() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    deliveryLine = `webhook deliveries: ${writes.length - missing()}/${writes.length} created environments' environment.created events delivered (${deliveries} deliveries received in all, warm-up included)`;
  }
  const hwm = Object.fromEntries(named.map(([n, pid]) => [`${n}_mb`, Number(memMb(pid, 'VmHWM').toFixed(1))]));

  console.log(`\nthroughput, ${connections} connections, ${duration}s each (after a warm-up of each)`);
  console.table(load);
  console.log(
    'CPU time per request by process (microseconds; postgres, redis and rabbitmq are all their processes, bench is autocannon), under each load:',
  );
  console.table(cpuPerRequest);
  console.log('peak resident memory by process (MB, VmRSS sampled every 200 ms), under each load:');
  console.table(peakRss);
  console.log('VmHWM (lifetime peak, MB):', hwm);
  const ratio = (x, y) => (x / y).toFixed(3);
  for (const n of ['env_get_gateway', 'env_get_direct', 'env_list_100', 'services_filtered']) {
    if (load[n]) console.log(`${n}: ${ratio(load[n].rps, load.bare.rps)} of bare rps${n === 'env_get_gateway' ? ' (goal >= 0.15)' : ''}`);
  }
  if (load.env_create && load.env_get_gateway)
    console.log(`env_create: ${ratio(load.env_create.rps, load.env_get_gateway.rps)} of the env_get_gateway read rate (goal >= 0.40)`);
  if (deliveryLine) console.log(deliveryLine);
  console.log('goals: gateway <= 100 us and incident-config <= 150 us CPU per lookup; RSS <= 150 MB per process');
} finally {
  receiver.close();
  await cleanup();
}

if (profileDir) {
  const files = fs
    .readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(profileDir, f))
    .filter((f) => fs.statSync(f).mtimeMs >= profileStart);
  printCpuProfiles(files, Object.fromEntries(children.map((c) => [String(c.pid), c.benchName])));
}
