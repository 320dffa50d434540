// Events over PostgreSQL (a machine with Node only): our transport (libs/events: one
// delivery row per consumer queue, LISTEN/NOTIFY, SKIP LOCKED claims) against pg-boss
// (publish/subscribe onto a notify-enabled queue). Measures a burst (events published
// in the relay's batches, until the consumer acked the last) and the latency of single
// events on an idle queue. pg-boss is not a dependency: install it anywhere and name it
// with PG_BOSS_MODULE=/path/to/node_modules/pg-boss/dist/index.js, or it is skipped.
// Needs libs/events built. docs/decisions.md, "Events without a broker", has the numbers.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { backing, root } from '../scripts/dev-env.mjs';

const BURST = Number(process.env.BENCH_EVENTS ?? 5000);
const SINGLES = Number(process.env.BENCH_SINGLES ?? 100);
const BATCH = 200;
const admin = backing().pg;
const events = await import(pathToFileURL(path.join(root, 'libs/events/dist/index.js')).href);
const logger = { debug() {}, info() {}, warn() {}, error: console.error, child: () => logger };

const envelope = () => ({
  id: randomUUID(),
  type: 'incident.created',
  occurred_at: new Date().toISOString(),
  team_id: 1,
  data: { id: 'x' },
});
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function withDatabase(name, fn) {
  const server = new pg.Client({ connectionString: `${admin}/postgres` });
  await server.connect();
  try {
    return await fn(`${admin}/${name}`);
  } finally {
    await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.end();
  }
}

/** Runs the burst and the singles over `publish(envelopes)` and a consumer that calls `onEvent(id)`. */
async function measure(name, { publish, consume, stop }) {
  const seen = new Map();
  let done = 0;
  await consume((id) => {
    seen.get(id)?.();
    done++;
  });
  const burst = Array.from({ length: BURST }, envelope);
  const t0 = performance.now();
  for (let i = 0; i < burst.length; i += BATCH) await publish(burst.slice(i, i + BATCH));
  while (done < BURST) await sleep(5);
  const burstMs = performance.now() - t0;
  const latencies = [];
  for (let i = 0; i < SINGLES; i++) {
    const e = envelope();
    const arrived = new Promise((r) => seen.set(e.id, r));
    const t = performance.now();
    await publish([e]);
    await arrived;
    latencies.push(performance.now() - t);
    await sleep(20);
  }
  await stop();
  console.log(
    `${name.padEnd(22)} burst ${BURST} events: ${Math.round(burstMs)} ms (${Math.round(BURST / (burstMs / 1000))}/s); ` +
      `single event to handler: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
}

const tag = Date.now().toString(36);
await withDatabase(`fw_bench_events_${tag}`, async () => {
  const role = new URL(admin).username || 'postgres';
  await events.provisionPgEvents(`${admin}/postgres`, {
    database: `fw_bench_events_${tag}`,
    roles: [],
    queues: [{ queue: 'bench', role, bindings: ['incident.*'] }],
  });
  const transport = events.createEventTransport({ EVENTS_DATABASE_URL: `${admin}/fw_bench_events_${tag}` });
  const publisher = transport.publisher({ logger, name: 'bench', onReady() {} });
  await publisher.start();
  let consumer;
  await measure('firewatch events (pg)', {
    publish: async (batch) => {
      const out = await publisher.publish(batch.map((p, i) => ({ seq: i, id: p.id, type: p.type, team_id: 1, payload: p })));
      if (out.failure) throw out.failure;
    },
    consume: async (onEvent) => {
      consumer = transport.consume({
        logger,
        queue: 'bench',
        bindings: [],
        prefetch: 50,
        publishers: { 'incident-config': role },
        handler: async (e) => onEvent(e.id),
      });
      await consumer.start();
    },
    stop: async () => {
      await consumer.stop();
      await publisher.close();
    },
  });
});

let PgBoss;
try {
  ({ PgBoss } = await import(process.env.PG_BOSS_MODULE ?? 'pg-boss'));
} catch {
  console.log('pg-boss             skipped (not installed; see the header of this file)');
}
if (PgBoss) {
  await withDatabase(`fw_bench_boss_${tag}`, async (url) => {
    await events.provisionPgEvents(`${admin}/postgres`, { database: `fw_bench_boss_${tag}`, roles: [], queues: [] });
    const boss = new PgBoss({ connectionString: url, useListenNotify: true, max: 4 });
    boss.on('error', (err) => console.error(err.message));
    await boss.start();
    await boss.createQueue('bench', { notify: true });
    await boss.subscribe('incident.created', 'bench');
    await measure('pg-boss 12 (notify)', {
      // A burst goes in as jobs of the one subscribed queue (publish takes one event per call).
      publish: async (batch) =>
        batch.length === 1
          ? boss.publish('incident.created', batch[0])
          : boss.insert(
              'bench',
              batch.map((data) => ({ data })),
            ),
      consume: (onEvent) =>
        boss.work('bench', { batchSize: 50, burstWhenBatchFull: true }, async (jobs) => jobs.forEach((j) => onEvent(j.data.id))),
      stop: () => boss.stop({ graceful: false }),
    });
  });
}
