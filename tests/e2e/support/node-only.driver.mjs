// Runs inside an empty network namespace (`unshare -n`), as a fresh machine with Node
// only: `pnpm start`, the CLI, the API, a user event consumed by on-call and a webhook
// delivery to a receiver started here, then the CLI again once the system stopped (the
// embedded PostgreSQL started for it, on the data the system left). Prints one JSON line
// of what it saw; node-only.e2e.test.ts judges it. Usage: node node-only.driver.mjs <state dir>
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const stateDir = process.argv[2];
// The test command built the processes before any test ran, as for the other end-to-end tests.
const env = {
  ...process.env,
  FIREWATCH_STATE_DIR: stateDir,
  FIREWATCH_DEV_LOOPBACK_WEBHOOKS: '1',
  FIREWATCH_SKIP_BUILD: '1',
  LOG_LEVEL: 'warn',
};
// A fresh machine configures nothing: no server named for the scripts, the CLI or the services.
for (const name of Object.keys(env))
  if (/^FIREWATCH_(PG|AMQP|REDIS)_URL$|^FIREWATCH_BACKING$|^(DATABASE|AMQP|REDIS|EVENTS_DATABASE)_URL$/.test(name)) delete env[name];
const seen = { listening: {} };
const t0 = Date.now();
const elapsed = () => Math.round((Date.now() - t0) / 100) / 10;

// A new network namespace has its loopback down.
spawnSync('ip', ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });

function startSystem() {
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const running = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not running after 120 s:\n${output.slice(-3000)}`)), 120_000);
    const onData = (d) => {
      output += d;
      if (output.includes('Firewatch is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start.mjs exited (${code}):\n${output.slice(-3000)}`));
    });
  });
  return {
    running,
    pid: child.pid,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

function cli(...args) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/firewatch.mjs'), ...args], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`firewatch ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function api(method, url, token, body) {
  const res = await fetch(`http://127.0.0.1:8080${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/vnd.api+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function startReceiver() {
  const deliveries = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, deliveries, close: () => server.close() };
}

// The services start.mjs runs: its children but the embedded server (`postgres`; Node names itself `MainThread`).
function servicesOf(pid) {
  const found = [];
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const [, name, ppid] = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').match(/^\d+ \((.*)\) \S (\d+)/);
      if (Number(ppid) === pid && name !== 'postgres') found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Stops the system and says whether the database stopped under services still running: a
// connection opened before asks it again and again while any service process is alive.
async function stopWatchingTheDatabase() {
  const { EMBEDDED_PG_PASSWORD } = JSON.parse(fs.readFileSync(path.join(stateDir, 'secrets.json'), 'utf8'));
  const db = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(EMBEDDED_PG_PASSWORD)}@127.0.0.1:5439/postgres` });
  db.on('error', () => undefined);
  await db.connect();
  const services = servicesOf(system.pid);
  const stopping = system.stop();
  const watch = { services: services.length, probes: 0, databaseLostUnderServices: false };
  while (services.some(alive)) {
    watch.probes++;
    if (
      !(await db.query('SELECT 1').then(
        () => true,
        () => false,
      ))
    )
      watch.databaseLostUnderServices = true;
  }
  await db.end().catch(() => undefined);
  return { code: await stopping, watch };
}

const answers = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => resolve(true) || s.destroy());
    s.once('error', () => resolve(false));
  });

async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return check();
}

const system = startSystem();
try {
  // Nothing answers here before the system starts: what the machine offers is Node alone.
  for (const port of [5432, 5672, 6379]) seen.listening[port] = await answers(port);
  await system.running;
  seen.startedAfterS = elapsed();
  seen.firstStart = system.output();

  const boot = cli('bootstrap', '--team-name', 'Node only', '--email', 'admin@node-only.test');
  const token = boot.api_key?.token ?? boot.token;
  seen.cliTeam = boot.team?.name;
  seen.environmentsStatus = (await api('GET', '/v1/environments', token)).status;
  // The CLI's user reached on-call as an event from auth (its users queue): it may own a schedule.
  const schedule = { data: { type: 'schedules', attributes: { name: 'Primary', owner_user_id: boot.user?.id } } };
  let owned = await api('POST', '/v1/schedules', token, schedule);
  for (const deadline = Date.now() + 20_000; owned.status !== 201 && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 200));
    owned = await api('POST', '/v1/schedules', token, schedule);
  }
  seen.scheduleStatus = owned.status;

  const rx = await startReceiver();
  const endpoint = await api('POST', '/v1/webhooks/endpoints', token, {
    data: { type: 'webhooks_endpoints', attributes: { name: 'Here', url: rx.url, event_types: ['environment.created'] } },
  });
  seen.endpointStatus = endpoint.status;
  const created = await api('POST', '/v1/environments', token, { data: { type: 'environments', attributes: { name: 'Prod' } } });
  seen.environmentId = created.body?.data?.id;
  await until(() => rx.deliveries.length > 0, 20_000);
  seen.deliveries = rx.deliveries.map((d) => JSON.parse(d.body));
  seen.deliveredAfterS = elapsed();
  rx.close();
} catch (err) {
  seen.error = err.message;
} finally {
  ({ code: seen.stopCode, watch: seen.stopWatch } = await stopWatchingTheDatabase().catch(async (err) => {
    seen.error ??= `watching the stop: ${err.message}`;
    return { code: await system.stop() };
  }));
}
try {
  // The system is down: the CLI starts the embedded PostgreSQL for itself, on the same data.
  seen.teamsAfterStop = cli('teams', 'list');
} catch (err) {
  seen.error ??= err.message;
}
seen.totalS = elapsed();
process.stdout.write(`NODE-ONLY ${JSON.stringify(seen)}\n`);
