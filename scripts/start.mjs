// `pnpm start`: builds, then runs every process of the system on its own port, and
// prints where to reach it. Ctrl-C stops them all.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { backing, processEnvs, PROCESSES, provisionDatabases, root } from './dev-env.mjs';
import { waitForHttp, waitForPort } from './wait-for.mjs';

const b = backing();
for (const [name, url, port] of [['PostgreSQL', b.pg, 5432], ['RabbitMQ', b.amqp, 5672], ['Redis', b.redis, 6379]]) {
  try {
    await waitForPort(url, port, 15_000);
  } catch {
    console.error(`${name} does not answer at ${url}. Start it (see README, "Requirements") and try again.`);
    process.exit(1);
  }
}

console.log('Building...');
const build = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const envs = processEnvs({ logLevel: process.env.LOG_LEVEL ?? 'info' });
await provisionDatabases(envs);
const children = [];
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

for (const { name, entry } of PROCESSES) {
  const child = spawn(process.execPath, [path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...envs[name] },
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
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited with code ${code}; stopping the system.`);
      stopAll(1);
    }
  });
  children.push(child);
  await waitForHttp(`http://127.0.0.1:${envs[name].PORT}/readyz`).catch((err) => {
    console.error(err.message);
    stopAll(1);
  });
}

console.log(`
Firewatch is running.
  Gateway (API base URL): ${envs.urls.gateway}/v1
  Auth server:            ${envs.urls.auth}

Get a first API key (team + admin user + global key, printed as JSON), in another shell:
  npx -y pnpm@10.34.8 --silent firewatch bootstrap --team-name "My team" --email admin@example.com

Then:
  curl -H "Authorization: Bearer <token>" ${envs.urls.gateway}/v1/environments
`);
