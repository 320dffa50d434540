// `pnpm bench:catalog`: through the gateway, on a private copy of the system, the time of
// one bulk_upsert of 100 entities (new, then unchanged, then all changed) and the
// throughput of GET /v1/services?page[size]=100 (a full page of 100).
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 BENCH_ROUNDS=5 pnpm bench:catalog
import autocannon from 'autocannon';
import { startApiStack } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const { system, envs, token } = await startApiStack();

try {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };

  /** One bulk_upsert of 100 entities; its wall time in ms. */
  async function upsert(family, round, description) {
    const entities = Array.from({ length: 100 }, (_, i) => ({
      external_id: `r${round}-${i}`,
      name: `${family} ${round}-${i}`,
      description,
      position: i,
    }));
    const started = performance.now();
    const res = await fetch(`${envs.urls.gateway}/v1/${family}/bulk_upsert`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ entities }),
    });
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
    rows[family] = {
      new_ms: Math.round(median(created)),
      unchanged_ms: Math.round(median(unchanged)),
      all_changed_ms: Math.round(median(changed)),
    };
  }
  console.log(`\nPOST /v1/<family>/bulk_upsert of 100 entities through the gateway, median of ${rounds}`);
  console.table(rows);

  // A full page of the services the rounds made.
  const url = `${envs.urls.gateway}/v1/services?page[size]=100`;
  const check = await fetch(url, { headers }).then((r) => r.json());
  if (check.data?.length !== 100) throw new Error(`expected 100 services, got ${check.data?.length}`);
  const run = () =>
    new Promise((resolve, reject) => {
      autocannon({ url, connections, duration, headers: { authorization: headers.authorization } }, (err, r) =>
        err ? reject(err) : resolve(r),
      );
    });
  await run(); // warm-up
  const r = await run();
  console.log(`\nGET /v1/services?page[size]=100 (a full page) through the gateway, ${connections} connections, ${duration}s`);
  console.table({ gateway: { rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors } });
} finally {
  await system.cleanup();
}
