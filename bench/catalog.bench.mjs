// `pnpm bench:catalog`: through the gateway, on a private copy of the system, the time of
// one bulk_upsert of 100 entities (new, then unchanged, then all changed) and the
// throughput of GET /v1/services?page[size]=100 (a full page of 100).
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 BENCH_ROUNDS=5 pnpm bench:catalog
import autocannon from 'autocannon';
import { processEnvs, PROCESSES, provisionDatabases } from '../scripts/dev-env.mjs';
import { build, createBenchSystem, freePort } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

build();
const suffix = `_bench_${process.pid}`;
const ports = { gateway: await freePort(), auth: await freePort(), incidentConfig: await freePort() };
const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'b'.repeat(43) });
await provisionDatabases(envs);
const system = createBenchSystem({ databases: [`firewatch_auth${suffix}`, `firewatch_incident_config${suffix}`] });

try {
  await system.start(PROCESSES.filter((p) => ['auth', 'incident-config', 'gateway'].includes(p.name)).map((p) => ({ ...p, env: envs[p.name] })));
  const cli = (...args) => system.cli(envs.auth, ...args);
  const boot = cli('bootstrap', '--team-name', 'bench', '--email', 'bench@example.com');
  const key = cli('api-keys', 'create', '--team-id', String(boot.team.id), '--name', 'bench', '--role', 'admin', '--rate-limit-read', '1000000', '--rate-limit-write', '1000000');
  const token = key.api_key?.token ?? key.token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };

  /** One bulk_upsert of 100 entities; its wall time in ms. */
  async function upsert(family, round, description) {
    const entities = Array.from({ length: 100 }, (_, i) => ({ external_id: `r${round}-${i}`, name: `${family} ${round}-${i}`, description, position: i }));
    const started = performance.now();
    const res = await fetch(`${envs.urls.gateway}/v1/${family}/bulk_upsert`, { method: 'POST', headers, body: JSON.stringify({ entities }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bulk_upsert answered ${res.status}`);
    return performance.now() - started;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = {};
  for (const family of ['functionalities', 'services', 'environments']) {
    const created = [];
    const unchanged = [];
    const changed = [];
    for (let round = 0; round < rounds; round++) {
      created.push(await upsert(family, round, 'first'));
      unchanged.push(await upsert(family, round, 'first'));
      changed.push(await upsert(family, round, 'second'));
    }
    rows[family] = { new_ms: Math.round(median(created)), unchanged_ms: Math.round(median(unchanged)), all_changed_ms: Math.round(median(changed)) };
  }
  console.log(`\nPOST /v1/<family>/bulk_upsert of 100 entities through the gateway, median of ${rounds}`);
  console.table(rows);

  // A full page of the services the rounds made.
  const url = `${envs.urls.gateway}/v1/services?page[size]=100`;
  const check = await fetch(url, { headers }).then((r) => r.json());
  if (check.data?.length !== 100) throw new Error(`expected 100 services, got ${check.data?.length}`);
  const run = () => new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers: { authorization: headers.authorization } }, (err, r) => (err ? reject(err) : resolve(r)));
  });
  await run(); // warm-up
  const r = await run();
  console.log(`\nGET /v1/services?page[size]=100 (a full page) through the gateway, ${connections} connections, ${duration}s`);
  console.table({ gateway: { rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors } });
} finally {
  await system.cleanup();
}
