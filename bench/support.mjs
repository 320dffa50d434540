// What every benchmark needs: free ports, the built processes started and ready, the
// CLI against their auth database, and a clean-up that drops the databases it made.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import pg from 'pg';
import { backing, root, SERVICE_ENV, SERVICE_NODE_ARGS } from '../scripts/dev-env.mjs';
import { waitForHttp } from '../scripts/wait-for.mjs';

// As libs/testing's freePort (the benches run without building it): a random port below the
// kernel's ephemeral range, never twice in one run. A `listen(0)` port, once closed, was
// taken by an outgoing connection of a concurrent bench before its service bound it.
const handedOut = new Set();
const canListen = (port) =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

export async function freePort() {
  let highest = 32_768;
  try {
    highest = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || highest;
  } catch {
    /* not Linux: its default */
  }
  highest = Math.max(highest, 21_000);
  for (let tries = 0; tries < 500; tries++) {
    const port = 20_000 + Math.floor(Math.random() * (highest - 20_000));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in 20000–${highest - 1}`);
}

export function build(...projects) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', ...projects], { cwd: root, stdio: 'inherit' });
}

/**
 * Starts `procs` ({ name, entry, env, nodeArgs? }) one after another, each once its
 * /readyz answers. `databases` and the durable `queues` are dropped by `cleanup()`.
 */
export function createBenchSystem({ databases, queues = [] }) {
  const children = [];
  return {
    children,
    async start(procs) {
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
    },
    cli(authEnv, ...args) {
      const out = execFileSync(process.execPath, [path.join(root, 'services/auth/dist/src/cli/main.js'), ...args], {
        env: { ...process.env, ...authEnv },
      });
      return JSON.parse(out.toString());
    },
    async cleanup() {
      for (const c of children) c.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1500));
      const client = new pg.Client({ connectionString: `${backing().pg}/postgres` });
      await client.connect();
      for (const db of databases) await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      await client.end();
      // Left on the broker, a queue bound to events would collect every later run's.
      if (queues.length) {
        const conn = await amqp.connect(backing().amqp);
        const ch = await conn.createChannel();
        for (const q of queues) await ch.deleteQueue(q);
        await conn.close();
      }
    },
  };
}

/**
 * The stack the API benchmarks measure (auth, incident-config and the gateway) on private
 * databases, with a bootstrapped team, its admin `user` and an admin key whose rate limits are out of the
 * way. `gatewayNodeArgs` go to the gateway's node (a CPU profile, for instance), and
 * `serviceNodeArgs[name]` to a service's; `services` adds further processes by name (only
 * 'on-call' so far: its port and database are provided); `serviceEnv[name]` adds to or
 * overrides a process's environment (on-call's SMTP_URL, for instance).
 */
export async function startApiStack({ gatewayNodeArgs = [], services = [], serviceNodeArgs = {}, serviceEnv = {} } = {}) {
  const { processEnvs, PROCESSES, provisionBroker, provisionDatabases } = await import('../scripts/dev-env.mjs');
  build();
  const suffix = `_bench_${process.pid}`;
  const ports = { gateway: await freePort(), auth: await freePort(), incidentConfig: await freePort(), onCall: await freePort() };
  const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'b'.repeat(43) });
  await provisionDatabases(envs);
  await provisionBroker(envs);
  // Every database provisionDatabases made, started or not.
  const system = createBenchSystem({ databases: envs.databases.map((d) => d.database), queues: envs.queues });
  try {
    await system.start(
      PROCESSES.filter((p) => ['auth', 'incident-config', ...services, 'gateway'].includes(p.name)).map((p) => ({
        ...p,
        env: { ...envs[p.name], ...serviceEnv[p.name] },
        nodeArgs: p.name === 'gateway' ? gatewayNodeArgs : (serviceNodeArgs[p.name] ?? []),
      })),
    );
    const cli = (...args) => system.cli(envs.auth, ...args);
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
    return { system, envs, token: key.api_key?.token ?? key.token, user: boot.user };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

const IDLE_FRAMES = new Set(['(idle)', '(program)', '(garbage collector)']);

/** The npm package, or our lib/service, a script URL belongs to. */
function codeOwner(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node core';
  const pkg =
    url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/) ?? url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const ours = url.replace(`file://${root}/`, '').match(/^(libs\/[^/]+|services\/[^/]+|gateway)/);
  return ours ? `ours: ${ours[1]}` : url;
}

/**
 * Prints, for each `.cpuprofile` (from `node --cpu-prof`), the idle/program/GC share, the
 * top 15 functions by self time (file:line), and self time by package, a native frame
 * (writev, string encoding) being charged to the package of its nearest scripted caller.
 * `names` maps a pid (from the file name CPU.<date>.<time>.<pid>...) to a process name.
 */
export function printCpuProfiles(files, names = {}) {
  for (const file of files) {
    const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const scriptedUrl = (id) => {
      let n = byId.get(id);
      while (n && !n.callFrame.url && parent.has(n.id)) n = byId.get(parent.get(n.id));
      return n?.callFrame.url ?? '';
    };
    const self = new Map(),
      owners = new Map();
    let total = 0,
      busy = 0;
    prof.samples.forEach((id, i) => {
      const dt = prof.timeDeltas[i] ?? 0;
      total += dt;
      const { callFrame: cf } = byId.get(id);
      const where = cf.url
        ? `${cf.url.replace(`file://${root}/`, '').replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')}:${cf.lineNumber + 1}`
        : '';
      const key = `${cf.functionName || '(anonymous)'} ${where}`.trim();
      self.set(key, (self.get(key) ?? 0) + dt);
      if (IDLE_FRAMES.has(cf.functionName)) return;
      busy += dt;
      const owner = codeOwner(scriptedUrl(id));
      owners.set(owner, (owners.get(owner) ?? 0) + dt);
    });
    const ms = (us) => Math.round(us / 1e3);
    const pct = (us, of) => Number(((us / of) * 100).toFixed(1));
    const rows = [...self].sort((x, y) => y[1] - x[1]);
    const pid = path.basename(file).split('.')[3];
    console.log(
      `\n${names[pid] ?? 'process'} (${path.basename(file)}): ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`,
    );
    console.log(
      rows
        .filter(([k]) => IDLE_FRAMES.has(k))
        .map(([k, us]) => `${k} ${ms(us)} ms (${pct(us, total)} %)`)
        .join(', '),
    );
    console.table(
      rows
        .filter(([k]) => !IDLE_FRAMES.has(k))
        .slice(0, 15)
        .map(([k, us]) => ({ function: k, self_ms: ms(us), pct_of_busy: pct(us, busy) })),
    );
    console.table(
      [...owners]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 15)
        .map(([o, us]) => ({ package: o, self_ms: ms(us), pct_of_busy: pct(us, busy) })),
    );
  }
}

/**
 * CPU seconds (utime + stime) a process has spent, from /proc; with `children`, plus
 * those of its children it has reaped (cutime + cstime); with `kernelOnly`, its stime
 * alone (what it spent in the kernel); NaN once it is gone.
 */
export function cpuSeconds(pid, { children = false, kernelOnly = false } = {}) {
  const ticks = Number(process.env.CLK_TCK ?? 100);
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    if (kernelOnly) return Number(f[12]) / ticks;
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / ticks;
  } catch {
    return NaN;
  }
}

const BACKING = { postgres: 'postgres', 'redis-server': 'redis', 'beam.smp': 'rabbitmq', erl_child_setup: 'rabbitmq' };

/**
 * CPU seconds of every process of the local backing services (PostgreSQL forks a
 * backend per connection), as a Map pid → { name, seconds }; see {@link backingCpuSpent}.
 * A process's figure includes its reaped children's, so a PostgreSQL backend that exits
 * during a run is still counted (whole), through the postmaster.
 */
export function backingCpuSeconds() {
  const out = new Map();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let comm;
    try {
      comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const seconds = cpuSeconds(pid, { children: true });
    if (BACKING[comm] && !Number.isNaN(seconds)) out.set(pid, { name: BACKING[comm], seconds });
  }
  return out;
}

/**
 * CPU seconds each backing service spent between two readings: a process born in between
 * counts whole; one gone by the second reading counts, for the time in between, through
 * its parent's reaped time.
 */
export function backingCpuSpent(before, after) {
  const out = { postgres: 0, redis: 0, rabbitmq: 0 };
  for (const [pid, { name, seconds }] of after) out[name] += seconds - (before.get(pid)?.seconds ?? 0);
  // Reaped, a gone process's whole life is in its parent's figure: take out what came before.
  for (const [pid, { name, seconds }] of before) if (!after.has(pid)) out[name] -= seconds;
  return out;
}

/**
 * The principal header a domain service expects, signed as the gateway would sign it for
 * `token`'s credential, so a bench can call the service directly.
 */
export async function principalAsGateway(envs, token, { audience, method, path: requestPath }) {
  const { createPrincipalSigner, createSystemTokens } = await import(path.join(root, 'libs/auth/dist/index.js'));
  const resolved = await fetch(`${envs.urls.auth}/internal/credentials/resolve`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await createSystemTokens(envs.auth.SYSTEM_TOKEN_SECRET).sign('bench')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ token }),
  }).then((r) => r.json());
  return createPrincipalSigner({ privateKey: JSON.parse(envs.gateway.PRINCIPAL_SIGNING_KEY), ttlSeconds: 3600 }).sign(resolved.principal, {
    audience,
    method,
    path: requestPath,
  });
}
