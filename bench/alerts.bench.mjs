// `pnpm bench:alerts`: alert ingestion through the gateway (POST /ingest/alert_sources/{id}),
// on a private copy of the system (auth, incident-config, on-call, gateway), with
// deduplication (a key path) and grouping (a group by summary) on. Closed loop, as
// monitoring tools send: BENCH_CONNECTIONS senders, each posting its next payload once its
// previous one was answered, for BENCH_DURATION s — so it measures the service, not a
// queue the benchmark built in front of it (an open loop above capacity times its own
// backlog). Reports accepted alerts a second, and per payload and per alert (a payload's
// time shared by its alerts) p50/p99. Run twice: on a nearly empty team, then after
// BENCH_OPEN open alerts were added (Alertmanager notifications of 100 alerts), to show
// ingestion does not slow with the team's open alerts. Then checks that every 202 is in
// PostgreSQL: the sum of the source's alerts' received_count equals the accepted alerts.
//   BENCH_CONNECTIONS=16 BENCH_DURATION=20 BENCH_BATCH=1 BENCH_OPEN=10000 pnpm bench:alerts
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuSeconds, printCpuProfiles, startApiStack } from './support.mjs';

const num = (name, d) => Number(process.env[name] ?? d);
const duration = num('BENCH_DURATION', 20);
const openAlerts = num('BENCH_OPEN', 10_000);
const connections = num('BENCH_CONNECTIONS', 16);
// Distinct keys per phase: the first arrivals of each make alerts, the rest deduplicate into them.
const keys = num('BENCH_KEYS', 2_000);
// Distinct summaries: alerts of one summary join one leader in the group's window.
const titles = num('BENCH_TITLES', 200);
// Alerts per payload: 1 is a generic webhook's one alert a request; more is an Alertmanager
// notification of that many (its group's alerts), each keyed by fingerprint as the generic
// ones are by $.id. Alerts are counted one by one either way.
const batch = num('BENCH_BATCH', 1);
// BENCH_GROUPING=0 leaves the team without its alert group, to tell grouping's share.
const grouping = num('BENCH_GROUPING', 1) === 1;

// BENCH_PROFILE=<dir> writes CPU profiles of on-call and the gateway there when they exit, and prints their hot spots.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const { system, envs, token } = await startApiStack({
  services: ['on-call'],
  gatewayNodeArgs: profile,
  serviceNodeArgs: { 'on-call': profile },
});
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

/** One request; resolves with its status and body, never rejects (a refused connection is status 0). */
function send(url, { method = 'POST', headers = {}, body }) {
  return new Promise((resolve) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

const api = async (path, body) => {
  const res = await send(`${envs.urls.gateway}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.body}`);
  return JSON.parse(res.body).data;
};

const pct = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const pick = (n) => Math.floor(Math.random() * n);
/** One payload of `batch` alerts of phase `name`, keys and titles drawn at random. */
function payload(name, i) {
  if (batch === 1)
    return {
      id: `${name}-${pick(keys)}`,
      summary: `CPU high on host-${pick(titles)}`,
      description: 'load above 8 for 5 minutes',
      url: 'https://grafana.example/d/cpu',
      host: `host-${i % 50}`,
    };
  const alerts = Array.from({ length: batch }, () => ({
    status: 'firing',
    labels: { alertname: 'CPUHigh', instance: `host-${pick(50)}` },
    annotations: { summary: `CPU high on host-${pick(titles)}`, description: 'load above 8 for 5 minutes' },
    startsAt: new Date().toISOString(),
    generatorURL: 'https://prometheus.example/graph',
    fingerprint: `${name}-${pick(keys)}`,
  }));
  return { version: '4', status: 'firing', receiver: 'firewatch', groupKey: '{}:{}', alerts };
}

/** BENCH_CONNECTIONS closed-loop senders posting to `source` for BENCH_DURATION s. */
async function phase(name, source) {
  const url = `${envs.urls.gateway}/ingest/alert_sources/${source.id}`;
  const headers = { authorization: `Bearer ${source.attributes.secret}`, 'content-type': 'application/json' };
  const latencies = [];
  const statuses = {};
  let sent = 0;
  const cpuBefore = Object.fromEntries(system.children.map((c) => [c.benchName, cpuSeconds(c.pid)]));
  const started = performance.now();
  const until = started + duration * 1000;
  const sender = async () => {
    while (performance.now() < until) {
      const body = JSON.stringify(payload(name, sent++));
      const t0 = performance.now();
      const res = await send(url, { headers, body });
      latencies.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, sender));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const cpu = Object.fromEntries(system.children.map((c) => [c.benchName, (cpuSeconds(c.pid) - cpuBefore[c.benchName]).toFixed(1)]));
  return {
    phase: name,
    payloads: sent,
    alerts_accepted_per_s: Math.round(((statuses[202] ?? 0) * batch) / seconds),
    payload_p50_ms: pct(latencies, 0.5).toFixed(1),
    payload_p99_ms: pct(latencies, 0.99).toFixed(1),
    // Every alert of a payload is answered with it: its share of the payload's time.
    alert_p50_ms: (pct(latencies, 0.5) / batch).toFixed(2),
    alert_p99_ms: (pct(latencies, 0.99) / batch).toFixed(2),
    max_ms: latencies[latencies.length - 1].toFixed(1),
    statuses: JSON.stringify(statuses),
    cpu_s: JSON.stringify(cpu),
  };
}

try {
  // The gateway learns the source's own limit from on-call's first answer: far above the benchmark's rate.
  const sourceAttributes = {
    source_type: batch === 1 ? 'generic_webhook' : 'alertmanager',
    deduplicate_alerts_by_key: true,
    deduplication_key_kind: 'payload',
    deduplication_key_path: '$.id',
    alert_template_attributes: { title: '$.summary', description: '$.description', external_url: '$.url' },
    rate_limit_per_minute: 1_000_000,
  };
  const source = await api('/v1/alert_sources', { data: { type: 'alert_sources', attributes: { name: 'bench', ...sourceAttributes } } });
  if (grouping)
    await api('/v1/alert_groups', {
      data: {
        type: 'alert_groups',
        attributes: {
          name: 'same summary',
          time_window: 60,
          conditions: [
            { property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' },
          ],
        },
      },
    });
  // Warm-up: connections, JIT, the gateway's knowledge of the source's limit.
  let warmed = 0;
  for (let i = 0; i < 100; i++) {
    const res = await send(`${envs.urls.gateway}/ingest/alert_sources/${source.id}`, {
      headers: { authorization: `Bearer ${source.attributes.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload('warm', i)),
    });
    if (res.status === 202) warmed += batch;
  }

  const results = [await phase('empty team', source)];
  console.table(results);

  // BENCH_OPEN open alerts in the team, through an Alertmanager source, 100 a notification
  // (a thousand-alert one can outlast the gateway's 30 s upstream timeout on a busy machine).
  const am = await api('/v1/alert_sources', {
    data: { type: 'alert_sources', attributes: { name: 'open alerts', source_type: 'alertmanager', rate_limit_per_minute: 1_000_000 } },
  });
  for (let n = 0; n < openAlerts; n += 100) {
    const alerts = Array.from({ length: Math.min(100, openAlerts - n) }, (_, i) => ({
      status: 'firing',
      labels: { alertname: `Open ${n + i}`, instance: `node-${n + i}` },
      annotations: { summary: `Open alert ${n + i}` },
      fingerprint: `open-${n + i}`,
    }));
    const res = await send(`${envs.urls.gateway}/ingest/alert_sources/${am.id}`, {
      headers: { authorization: `Bearer ${am.attributes.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: '4', status: 'firing', alerts }),
    });
    if (res.status !== 202) throw new Error(`prefill: ${res.status} ${res.body}`);
  }
  // What autovacuum does in production after this many new rows; the machines this runs on
  // start PostgreSQL with autovacuum off, where a table never analyzed keeps the planner's
  // guesses of an empty one (docs/performance.md, "Statistics").
  const analyze = new pg.Client({ connectionString: envs['on-call'].DATABASE_URL });
  await analyze.connect();
  await analyze.query('ANALYZE');
  await analyze.end();
  results.push(await phase(`${openAlerts} open`, source));

  // None lost: every 202 is an alert or a count on one, in PostgreSQL.
  const db = new pg.Client({ connectionString: envs['on-call'].DATABASE_URL });
  await db.connect();
  const { rows } = await db.query(
    `SELECT count(*)::int AS alerts, coalesce(sum(received_count), 0)::int AS received,
            count(*) FILTER (WHERE is_group_leader_alert)::int AS leaders,
            count(*) FILTER (WHERE group_leader_alert_id IS NOT NULL)::int AS members
       FROM alerts WHERE alert_source_id = $1`,
    [source.id],
  );
  const open = await db.query(`SELECT count(*)::int AS n FROM alerts WHERE status <> 'resolved'`);
  await db.end();
  const accepted = results.reduce((n, r) => n + (JSON.parse(r.statuses)[202] ?? 0) * batch, warmed);

  console.log(
    `\nPOST /ingest/alert_sources/{id} through the gateway: closed loop, ${connections} connections, ${batch} alert(s) a payload, ${duration}s per phase; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.table(results);
  console.log(
    `stored: ${rows[0].alerts} alerts of the source (${rows[0].leaders} group leaders, ${rows[0].members} members), ` +
      `received_count sum ${rows[0].received} for ${accepted} accepted alerts (warm-up included): ${
        // More stored than accepted: payloads the gateway gave up on (504) that on-call still committed.
        rows[0].received >= accepted ? 'none lost' : 'LOST'
      }; ` +
      `${open.rows[0].n} open alerts in the team`,
  );
  console.log('goal: >= 500 accepted/s, p99 < 200 ms, none lost, the same with 10 000 open alerts');
} finally {
  await system.cleanup();
}

if (profile.length) {
  const dir = process.env.BENCH_PROFILE;
  const names = Object.fromEntries(system.children.map((c) => [String(c.pid), c.benchName]));
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && Object.keys(names).some((pid) => f.includes(`.${pid}.`)))
    .map((f) => path.join(dir, f));
  printCpuProfiles(files, names);
}
