// `pnpm bench:paging`: alert accepted → page handed to the SMTP server, on a private copy of
// the system (auth, incident-config, on-call, gateway) and an SMTP server this script starts.
// A generic webhook source whose route pages a policy; the policy's level 1 pages a schedule
// with the team's admin on call, who has no notification rules, so each alert is one email to
// the account's address. Open loop at a fixed rate (the goal is a rate): alert i is posted
// at start + i/BENCH_RATE s whatever the earlier ones are doing, for BENCH_DURATION s, each
// with its own summary (no deduplication, no alert group, so every alert pages). Latency is
// from the 202 reaching this script to the end of the email's DATA at the SMTP server,
// matched by the summary in the mail. It counts the alerts whose email has not come
// BENCH_GRACE s after the last 202, then waits up to BENCH_LATE_WAIT s more for a backlog to
// drain: an alert still without an email is lost (a second email for one is a duplicate). The paging jobs run at on-call's defaults, as in production,
// unless PAGING_INTERVAL_MS / NOTIFICATION_SEND_INTERVAL_MS are set for this run.
//   BENCH_RATE=100 BENCH_DURATION=25 BENCH_GRACE=15 BENCH_LATE_WAIT=120 pnpm bench:paging
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import path from 'node:path';
import { cpuSeconds, printCpuProfiles, startApiStack } from './support.mjs';

const num = (name, d) => Number(process.env[name] ?? d);
const rate = num('BENCH_RATE', 100);
const duration = num('BENCH_DURATION', 25);
const grace = num('BENCH_GRACE', 15);
const lateWait = num('BENCH_LATE_WAIT', 120);
const jobEnv = Object.fromEntries(
  ['PAGING_INTERVAL_MS', 'NOTIFICATION_SEND_INTERVAL_MS'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
);

/** Summary token → time (performance.now()) its email's DATA ended at the SMTP server. */
const mailed = new Map();
let duplicates = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const at = performance.now();
      // The summary is in the subject and the text part; plain ASCII, so no decoding needed.
      const token = /pgb-[a-z]+-\d+/.exec(Buffer.concat(chunks).toString('latin1'))?.[0];
      if (token && mailed.has(token)) duplicates++;
      else if (token) mailed.set(token, at);
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));

// BENCH_PROFILE=<dir> writes a CPU profile of on-call there when it exits, and prints its hot spots.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const { system, envs, token, user } = await startApiStack({
  services: ['on-call'],
  serviceNodeArgs: { 'on-call': profile },
  serviceEnv: { 'on-call': { SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`, ...jobEnv } },
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

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
  return { status: res.status, body: res.body, data: res.status === 201 ? JSON.parse(res.body).data : undefined };
};
const created = async (path, type, attributes) => {
  const res = await api(path, { data: { type, attributes } });
  if (!res.data) throw new Error(`${path}: ${res.status} ${res.body}`);
  return res.data;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, q) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
/** Peak resident set of a process so far (VmHWM), in MB. */
const peakRssMb = (pid) => {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return NaN;
  }
};

/** Posts alerts `from`..`from+count-1` of run `run` at `perSecond`, open loop; resolves with each one's record. */
async function post(source, run, from, count, perSecond) {
  const url = `${envs.urls.gateway}/ingest/alert_sources/${source.id}`;
  const headers = { authorization: `Bearer ${source.attributes.secret}`, 'content-type': 'application/json' };
  const records = [];
  let lag = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    // Always through the event loop: a sender behind schedule that never yielded would post
    // the rest in one burst and read no 202 until it was done.
    await sleep(Math.max(0, wait));
    const key = `pgb-${run}-${from + i}`;
    const record = { key, sentAt: performance.now(), acceptedAt: NaN, status: 0 };
    lag = Math.max(lag, record.sentAt - due);
    records.push(record);
    record.done = send(url, { headers, body: JSON.stringify({ summary: `Bench page ${key}`, description: 'paging benchmark' }) }).then(
      (res) => {
        record.status = res.status;
        record.acceptedAt = performance.now();
      },
    );
  }
  await Promise.all(records.map((r) => r.done));
  return { records, seconds: (performance.now() - started) / 1000, lagMs: lag };
}

/** Waits until every accepted record has its email, or `seconds` have passed. */
async function awaitMails(records, seconds) {
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end && records.some((r) => r.status === 202 && !mailed.has(r.key))) await sleep(50);
}

try {
  // The admin reaches on-call through auth's events: retry the schedule until it has.
  let schedule;
  for (const end = Date.now() + 30_000; !schedule && Date.now() < end; await sleep(200))
    schedule = (await api('/v1/schedules', { data: { type: 'schedules', attributes: { name: 'Primary', owner_user_id: user.id } } })).data;
  if (!schedule) throw new Error('the admin never reached on-call');
  const rotation = await created(`/v1/schedules/${schedule.id}/schedule_rotations`, 'schedule_rotations', {
    name: 'Always',
    schedule_rotationable_type: 'ScheduleDailyRotation',
    schedule_rotationable_attributes: { handoff_time: '09:00' },
    time_zone: 'Etc/UTC',
    start_time: '2026-01-01T09:00:00Z',
  });
  await created(`/v1/schedule_rotations/${rotation.id}/schedule_rotation_users`, 'schedule_rotation_users', { user_id: user.id });
  const policy = await created('/v1/escalation_policies', 'escalation_policies', { name: 'Bench' });
  // One level, an hour before the paging ends: nothing but level 1 happens during the run.
  await created(`/v1/escalation_policies/${policy.id}/escalation_levels`, 'escalation_levels', {
    position: 1,
    delay: 60,
    notification_target_params: [{ type: 'schedule', id: schedule.id }],
  });
  // The gateway learns the source's own limit from on-call's first answer: far above the benchmark's rate.
  const source = await created('/v1/alert_sources', 'alert_sources', {
    name: 'bench',
    source_type: 'generic_webhook',
    alert_template_attributes: { title: '$.summary', description: '$.description' },
    rate_limit_per_minute: 1_000_000,
  });
  await created('/v1/alert_routes', 'alert_routes', {
    name: 'Everything',
    alerts_source_ids: [source.id],
    rules: [
      {
        name: 'All',
        position: 1,
        fallback_rule: true,
        destinations: [{ target_type: 'EscalationPolicy', target_id: policy.id }],
        condition_groups: [],
      },
    ],
  });

  // Warm-up at a tenth of the rate: connections (HTTP, SMTP pool), JIT, the gateway's knowledge of the source.
  const warm = await post(source, 'w', 0, Math.max(20, rate / 2), rate / 10);
  await awaitMails(warm.records, 30);
  const warmLost = warm.records.filter((r) => !mailed.has(r.key)).length;
  if (warmLost) throw new Error(`warm-up: ${warmLost} of ${warm.records.length} alerts were never emailed`);

  const cpuBefore = Object.fromEntries(system.children.map((c) => [c.benchName, cpuSeconds(c.pid)]));
  // This script's own (the sender and the SMTP server): on a loaded machine it competes too.
  const ownCpuBefore = process.cpuUsage();
  const measuredFrom = performance.now();
  const { records, seconds, lagMs } = await post(source, 'm', 0, Math.round(rate * duration), rate);
  await awaitMails(records, grace);
  const missingAfterGrace = records.filter((r) => r.status === 202 && !mailed.has(r.key)).length;
  // Late is not lost: give a backlog BENCH_LATE_WAIT s more to drain before calling an alert lost.
  await awaitMails(records, lateWait);
  const cpu = Object.fromEntries(system.children.map((c) => [c.benchName, (cpuSeconds(c.pid) - cpuBefore[c.benchName]).toFixed(1)]));
  const own = process.cpuUsage(ownCpuBefore);
  cpu['bench (sender, SMTP server)'] = ((own.user + own.system) / 1e6).toFixed(1);
  const load = os.loadavg();
  const measuredSeconds = (performance.now() - measuredFrom) / 1000;

  const statuses = {};
  for (const r of records) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const accepted = records.filter((r) => r.status === 202);
  const emailed = accepted.filter((r) => mailed.has(r.key));
  const latencies = emailed.map((r) => mailed.get(r.key) - r.acceptedAt).sort((a, b) => a - b);
  const ingest = accepted.map((r) => r.acceptedAt - r.sentAt).sort((a, b) => a - b);
  const lastMail = Math.max(...emailed.map((r) => mailed.get(r.key)));

  // Where the time goes, from the alerts' timelines (clock_timestamp() of each event, the
  // same machine's clock): when level 1 paged, against the 202 and the email.
  const db = new pg.Client({ connectionString: envs['on-call'].DATABASE_URL });
  await db.connect();
  const { rows } = await db.query(
    `SELECT substring(a.summary from 'pgb-m-[0-9]+') AS key, extract(epoch from min(e.created_at)) * 1000 AS paged_at
       FROM alerts a JOIN alert_events e ON e.alert_id = a.id AND e.kind = 'action' AND e.action = 'paged'
      WHERE a.summary LIKE 'Bench page pgb-m-%' GROUP BY a.summary`,
  );
  await db.end();
  const epoch = (t) => performance.timeOrigin + t;
  const pagedAt = new Map(rows.map((r) => [r.key, Number(r.paged_at)]));
  const staged = emailed.filter((r) => pagedAt.has(r.key));
  const toAccepted = staged.map((r) => epoch(r.acceptedAt) - pagedAt.get(r.key)).sort((a, b) => a - b);
  const toMail = staged.map((r) => epoch(mailed.get(r.key)) - pagedAt.get(r.key)).sort((a, b) => a - b);

  console.log(
    `\nalert accepted → email handed to the SMTP server: open loop at ${rate}/s for ${duration}s through the gateway, ` +
      `${grace}s grace then up to ${lateWait}s for late ones; jobs ${JSON.stringify(jobEnv)} (empty: on-call's defaults, PAGING_INTERVAL_MS 1000, NOTIFICATION_SEND_INTERVAL_MS 250); ` +
      `load average ${load.map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} CPUs`,
  );
  console.table([
    {
      alerts_sent: records.length,
      accepted_per_s: Math.round(accepted.length / seconds),
      // From the first post to the last email.
      emails_per_s: Math.round(emailed.length / ((lastMail - measuredFrom) / 1000)),
      p50_ms: Math.round(pct(latencies, 0.5)),
      p99_ms: Math.round(pct(latencies, 0.99)),
      max_ms: Math.round(latencies.at(-1)),
      min_ms: Math.round(latencies[0]),
      missing_after_grace: missingAfterGrace,
      lost: accepted.length - emailed.length,
      ingest_p50_ms: pct(ingest, 0.5).toFixed(1),
      ingest_p99_ms: pct(ingest, 0.99).toFixed(1),
      statuses: JSON.stringify(statuses),
      duplicate_mails: duplicates,
      // How far behind its schedule the sender got: near 0, the rate was the one asked for.
      sender_max_lag_ms: Math.round(lagMs),
    },
  ]);
  const row = (stage, xs) => ({
    stage,
    p50_ms: Math.round(pct(xs, 0.5)),
    p99_ms: Math.round(pct(xs, 0.99)),
    max_ms: Math.round(xs.at(-1)),
  });
  console.table([
    row('post → 202 (ingestion)', ingest),
    // Level 1 of a path without initial_delay pages in the intake's own transaction: before the 202.
    row('level 1 paged → 202', toAccepted),
    row('level 1 paged → SMTP DATA end (send job)', toMail),
  ]);
  console.table(
    [...system.children.map((c) => [c.benchName, c.pid]), ['bench (sender, SMTP server)', process.pid]].map(([name, pid]) => ({
      process: name,
      cpu_s: cpu[name],
      cpu_share: (cpu[name] / measuredSeconds).toFixed(2),
      peak_rss_mb: peakRssMb(pid),
    })),
  );
  console.log('goal: p99 < 1000 ms at 100 alerts/s, none lost');
} finally {
  await system.cleanup();
  await new Promise((resolve) => smtp.close(resolve));
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
