// The webhook dispatcher's CPU per delivered event, and its database's: one dispatcher
// process (the build under BENCH_ROOTS' each root), a private webhooks database, one
// endpoint subscribed, a receiver in this process answering 204. BENCH_EVENTS envelopes
// are published straight into the dispatcher's own queue (not bound to the shared
// exchange, so other systems' events stay out) at BENCH_RATE a second, in ticks of
// BENCH_TICK_MS; CPU is read from /proc/<pid>/stat for the dispatcher, for every
// PostgreSQL backend of its database (pg_stat_activity, this script's own excluded) and
// for the broker, from the first publish to the last delivery recorded as delivered.
// Roots alternate, each round in the opposite order of the last.
//
//   BENCH_ROOTS=/tmp/base,/work/main BENCH_ROUNDS=5 node bench/dispatcher-cost.bench.mjs
//
// Each root must be built (tsc -b services/webhook-dispatcher). BENCH_PROF=<dir> writes a
// CPU profile of each run's dispatcher there; BENCH_PRELOAD=<file> is --import'ed into it;
// BENCH_PAUSE_MS (default 500) is the quiet time between the warm-up and the measured events
// (over 5 s, the receiver closes the kept-alive connection, as Node's servers do).
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { backing, root, SERVICE_ENV, SERVICE_NODE_ARGS } from '../scripts/dev-env.mjs';
import { waitForHttp } from '../scripts/wait-for.mjs';
import { freePort } from './support.mjs';

const amqp = createRequire(path.join(root, 'services/webhook-dispatcher/package.json'))('amqplib');
const num = (name, d) => Number(process.env[name] ?? d);
// A root may carry environment for its dispatcher: /tmp/x?NAME=value&OTHER=value.
const roots = (process.env.BENCH_ROOTS ?? root).split(',').map((spec) => {
  const [dir, query = ''] = spec.split('?');
  return { dir: path.resolve(dir), env: Object.fromEntries(new URLSearchParams(query)), spec };
});
const rounds = num('BENCH_ROUNDS', 3);
const events = num('BENCH_EVENTS', 4000);
const rate = num('BENCH_RATE', 330);
const tickMs = num('BENCH_TICK_MS', 5);
const warmup = num('BENCH_WARMUP', 600);
const seed = 'c'.repeat(43);
const b = backing();
const HZ = 100;

const stat = (pid) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / HZ;
  } catch {
    return 0;
  }
};
const beam = () => {
  try {
    return Number(execFileSync('pgrep', ['-o', 'beam.smp']).toString().trim());
  } catch {
    return null;
  }
};

const received = { n: 0 };
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.n++;
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

const admin = new pg.Client({ connectionString: `${b.pg}/postgres` });
await admin.connect();
const conn = await amqp.connect(b.amqp);
const ch = await conn.createConfirmChannel();

function envelope(team_id) {
  const at = new Date().toISOString();
  const id = randomUUID();
  return {
    id: randomUUID(),
    type: 'environment.created',
    occurred_at: at,
    team_id,
    data: {
      id,
      type: 'environments',
      attributes: {
        name: `env-${id.slice(0, 8)}`,
        slug: `env-${id.slice(0, 8)}`,
        description: null,
        color: null,
        position: 1,
        created_at: at,
        updated_at: at,
      },
    },
  };
}

async function publish(queue, team, count) {
  const started = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    for (; sent < due; sent++) {
      const e = envelope(team);
      ch.sendToQueue(queue, Buffer.from(JSON.stringify(e)), {
        persistent: true,
        messageId: e.id,
        userId: 'guest',
        contentType: 'application/json',
      });
    }
    await new Promise((r) => setTimeout(r, tickMs));
  }
  await ch.waitForConfirms();
}

async function run({ dir, env }, label) {
  const tag = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const database = `fw_dispcost_${tag}`;
  const queue = `webhook-dispatcher.cost.${tag}`;
  await admin.query(`CREATE DATABASE "${database}"`);
  const dbUrl = `${b.pg}/${database}`;
  const events_ = await import(pathToFileURL(path.join(dir, 'libs/events/dist/index.js')));
  // The queue as provisioning declares it, but bound to nothing: the dispatcher only checks it.
  for (const q of events_.consumerQueueTopology({ queue, bindings: [] }).queues)
    await ch.assertQueue(q.name, { durable: true, arguments: q.arguments });
  const port = await freePort();
  const args = [...SERVICE_NODE_ARGS];
  if (process.env.BENCH_PROF)
    args.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`, `--cpu-prof-name=${label}-${tag}.cpuprofile`);
  if (process.env.BENCH_PRELOAD) args.push('--import', pathToFileURL(path.resolve(process.env.BENCH_PRELOAD)).href);
  const child = spawn(process.execPath, [...args, path.join(dir, 'services/webhook-dispatcher/dist/src/main.js')], {
    cwd: dir,
    env: {
      ...SERVICE_ENV,
      PATH: process.env.PATH,
      SERVICE_NAME: 'webhook-dispatcher',
      DATABASE_URL: dbUrl,
      AMQP_URL: b.amqp,
      DEV_KEY_SEED: seed,
      AMQP_PUBLISHERS: 'incident-config=guest',
      WEBHOOK_QUEUE: queue,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = new pg.Client({ connectionString: dbUrl });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    await db.connect();
    const { createSecretBox } = await import(pathToFileURL(path.join(dir, 'libs/secret-box/dist/index.js')));
    const box = createSecretBox({ keys: [], devKeySeed: seed });
    const team = 1_000_000 + Math.floor(Math.random() * 1e9);
    await db.query(
      `INSERT INTO webhooks_endpoints (team_id, name, slug, url, event_types, custom_headers, secret_ciphertext, secret_hint)
       VALUES ($1, 'bench', 'bench', $2, '["environment.created"]', '[]', $3, 'abcd')`,
      [team, receiverUrl, box.seal(`whsec_${Buffer.alloc(24, 7).toString('base64')}`)],
    );
    const receivedAtStart = received.n;
    const delivered = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM webhooks_deliveries WHERE status = 'delivered'`)).rows[0].n);
    const waitFor = async (n) => {
      const deadline = Date.now() + 120_000;
      // The receiver's count first: the database is asked only once every request arrived.
      while (received.n < n + receivedAtStart && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      while ((await delivered()) < n) {
        if (Date.now() > deadline) throw new Error(`${label}: ${await delivered()}/${n} delivered`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await publish(queue, team, warmup);
    await waitFor(warmup);
    await new Promise((r) => setTimeout(r, num('BENCH_PAUSE_MS', 500)));
    const own = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const backends = async () =>
      (await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [database, own])).rows.map((r) => r.pid);
    const tables = async () =>
      (
        await db.query(
          `SELECT sum(seq_scan) AS seq_scan, sum(seq_tup_read) AS seq_tup_read, sum(idx_scan) AS idx_scan,
                  (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits
             FROM pg_stat_user_tables`,
        )
      ).rows[0];
    const broker = beam();
    const statsBefore = await tables();
    const before = { disp: stat(child.pid), pg: new Map((await backends()).map((p) => [p, stat(p)])), beam: broker ? stat(broker) : 0 };
    const t0 = performance.now();
    const receivedBefore = received.n;
    await publish(queue, team, events);
    await waitFor(warmup + events);
    const seconds = (performance.now() - t0) / 1000;
    const after = { disp: stat(child.pid), pids: await backends(), beam: broker ? stat(broker) : 0 };
    let pgCpu = 0;
    for (const p of after.pids) pgCpu += stat(p) - (before.pg.get(p) ?? 0);
    const statsAfter = await tables();
    if (process.env.BENCH_TABLES)
      console.log(
        (
          await db.query(
            `SELECT relname, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE seq_scan + coalesce(idx_scan, 0) > 0`,
          )
        ).rows,
      );
    const perEvent = (k) => Number(((statsAfter[k] - statsBefore[k]) / events).toFixed(2));
    const attempts = Number((await db.query('SELECT count(*) AS n FROM webhooks_delivery_attempts')).rows[0].n);
    if (attempts !== warmup + events) throw new Error(`${label}: ${attempts} attempts for ${warmup + events} deliveries`);
    return {
      label,
      dispatcher_us: Math.round(((after.disp - before.disp) / events) * 1e6),
      pg_us: Math.round((pgCpu / events) * 1e6),
      beam_us: Math.round(((after.beam - before.beam) / events) * 1e6),
      backends: `${before.pg.size}->${after.pids.length}`,
      seq_scans: perEvent('seq_scan'),
      seq_rows: perEvent('seq_tup_read'),
      idx_scans: perEvent('idx_scan'),
      commits: perEvent('commits'),
      received: received.n - receivedBefore,
      seconds: seconds.toFixed(1),
    };
  } finally {
    await db.end().catch(() => undefined);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (process.env.BENCH_KEEP) console.log(`kept database ${database}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    for (const q of [queue, `${queue}.dead`]) await ch.deleteQueue(q).catch(() => undefined);
  }
}

const results = [];
const labels = roots.map((r, i) => `${String.fromCharCode(65 + i)}:${path.basename(r.spec)}`);
try {
  for (let round = 0; round < rounds; round++) {
    const order = roots.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const r = await run(roots[i], labels[i]);
      results.push(r);
      console.log(JSON.stringify({ round, ...r }));
    }
  }
} finally {
  receiver.close();
  await conn.close().catch(() => undefined);
  await admin.end();
}
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`\n${events} events at ${rate}/s per run, ${rounds} rounds; CPU µs per delivered event, median [min-max]`);
console.table(
  Object.fromEntries(
    labels.map((label) => {
      const mine = results.filter((r) => r.label === label);
      const col = (k) => `${median(mine.map((r) => r[k]))} [${Math.min(...mine.map((r) => r[k]))}-${Math.max(...mine.map((r) => r[k]))}]`;
      return [label, { dispatcher: col('dispatcher_us'), postgres: col('pg_us'), broker: col('beam_us') }];
    }),
  ),
);
