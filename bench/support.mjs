// What every benchmark needs: free ports, the built processes started and ready, the
// CLI against their auth database, and a clean-up that drops the databases it made.
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import amqp from 'amqplib';
import pg from 'pg';
import { backing, root } from '../scripts/dev-env.mjs';
import { waitForHttp } from '../scripts/wait-for.mjs';

export async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
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
        const child = spawn(process.execPath, [...(p.nodeArgs ?? []), path.join(root, p.entry)], {
          cwd: root, env: { ...process.env, ...p.env }, stdio: ['ignore', 'ignore', 'inherit'],
        });
        child.benchName = p.name;
        children.push(child);
        await waitForHttp(`http://127.0.0.1:${p.env.PORT}/readyz`);
      }
    },
    cli(authEnv, ...args) {
      const out = execFileSync(process.execPath, [path.join(root, 'services/auth/dist/src/cli/main.js'), ...args], { env: { ...process.env, ...authEnv } });
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
 * databases, with a bootstrapped team and an admin key whose rate limits are out of the
 * way. `gatewayNodeArgs` go to the gateway's node (a CPU profile, for instance); `services`
 * adds further processes by name (only 'on-call' so far: its port and database are provided).
 */
export async function startApiStack({ gatewayNodeArgs = [], services = [] } = {}) {
  const { processEnvs, PROCESSES, provisionDatabases } = await import('../scripts/dev-env.mjs');
  build();
  const suffix = `_bench_${process.pid}`;
  const ports = { gateway: await freePort(), auth: await freePort(), incidentConfig: await freePort(), onCall: await freePort() };
  const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'b'.repeat(43) });
  await provisionDatabases(envs);
  // Every database provisionDatabases made, started or not.
  const usersQueue = envs['on-call'].USERS_QUEUE;
  const system = createBenchSystem({ databases: envs.databases.map((d) => d.database), queues: [usersQueue, `${usersQueue}.dead`] });
  try {
    await system.start(PROCESSES.filter((p) => ['auth', 'incident-config', ...services, 'gateway'].includes(p.name))
      .map((p) => ({ ...p, env: envs[p.name], nodeArgs: p.name === 'gateway' ? gatewayNodeArgs : [] })));
    const cli = (...args) => system.cli(envs.auth, ...args);
    const boot = cli('bootstrap', '--team-name', 'bench', '--email', 'bench@example.com');
    const key = cli('api-keys', 'create', '--team-id', String(boot.team.id), '--name', 'bench', '--role', 'admin', '--rate-limit-read', '1000000', '--rate-limit-write', '1000000');
    return { system, envs, token: key.api_key?.token ?? key.token };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}
