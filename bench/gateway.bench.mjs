// `pnpm bench:gateway`: GET /v1/environments/{id} through the gateway and directly
// to incident-config, on a private copy of the system. Reports req/s, p50, p99.
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 [BENCH_PROFILE=/tmp/prof] pnpm bench:gateway
import http from 'node:http';
import autocannon from 'autocannon';
import { cpuSeconds, principalAsGateway, startApiStack } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

// Only what the measured path needs; the webhooks processes would compete for the two cores.
// BENCH_PROFILE=<dir> writes a CPU profile of the gateway there when it exits.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const { system, envs, token } = await startApiStack({ gatewayNodeArgs: profile });
const { children } = system;

try {
  const created = await fetch(`${envs.urls.gateway}/v1/environments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'environments', attributes: { name: 'Production' } } }),
  }).then((r) => r.json());
  const id = created.data.id;

  // The direct run carries a principal signed as the gateway would sign it.
  const principalToken = await principalAsGateway(envs, token, {
    audience: 'incident-config',
    method: 'GET',
    path: `/v1/environments/${id}`,
  });

  const run = (url, headers, conns = connections) =>
    new Promise((resolve, reject) => {
      autocannon({ url, connections: conns, duration, headers }, (err, result) => (err ? reject(err) : resolve(result)));
    });
  // One request at a time over one keep-alive connection, timed in microseconds
  // (autocannon's histogram has whole-millisecond resolution).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url, headers) =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        })
        .on('error', reject);
    });
  async function sequential(url, headers) {
    const times = [];
    let non2xx = 0;
    const until = Date.now() + duration * 1000;
    while (Date.now() < until) {
      const { status, ms } = await get(url, headers);
      if (status < 200 || status > 299) non2xx++;
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    const at = (q) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3));
    return { rps: Math.round(times.length / duration), p50_ms: at(0.5), p99_ms: at(0.99), non2xx, errors: 0 };
  }
  const targets = {
    direct: [`${envs.urls.incidentConfig}/v1/environments/${id}`, { 'x-firewatch-principal': principalToken }],
    gateway: [`${envs.urls.gateway}/v1/environments/${id}`, { authorization: `Bearer ${token}` }],
  };
  for (const [url, headers] of Object.values(targets))
    await run(url, headers).then(
      () => undefined,
      () => undefined,
    ); // warm-up
  // Throughput under load, then latency with one request in flight (no queueing), so
  // "added latency" is the gateway's own cost rather than contention for two cores.
  const summary = (r) => ({ rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
  // CPU seconds each process spent (utime+stime from /proc), so the gateway's own cost per
  // request can be read apart from the contention of everything sharing two cores.
  const cpu = cpuSeconds;
  const named = Object.fromEntries(children.map((c) => [c.benchName, c.pid]));
  const load = {};
  const single = {};
  const cpuPerRequest = {};
  for (const [name, [url, headers]] of Object.entries(targets)) {
    const before = Object.fromEntries(Object.entries(named).map(([n, pid]) => [n, cpu(pid)]));
    const r = await run(url, headers);
    load[name] = summary(r);
    cpuPerRequest[name] = Object.fromEntries(
      Object.entries(named).map(([n, pid]) => [`${n}_us`, Math.round(((cpu(pid) - before[n]) / r.requests.total) * 1e6)]),
    );
  }
  for (const [name, [url, headers]] of Object.entries(targets)) single[name] = await sequential(url, headers);
  console.log(`\nGET /v1/environments/{id}: throughput, ${connections} connections, ${duration}s each`);
  console.table(load);
  console.log('CPU time per request by process (microseconds), under the same load:');
  console.table(cpuPerRequest);
  console.log(`GET /v1/environments/{id}: latency, 1 connection, ${duration}s each`);
  console.table(single);
  console.log(`throughput ratio gateway/direct: ${((load.gateway.rps / load.direct.rps) * 100).toFixed(1)} % (goal >= 60 %)`);
  console.log(`added p50 latency (1 connection): ${(single.gateway.p50_ms - single.direct.p50_ms).toFixed(2)} ms (goal < 2 ms)`);
  console.log(`added p50 latency (${connections} connections): ${(load.gateway.p50_ms - load.direct.p50_ms).toFixed(2)} ms`);
} finally {
  await system.cleanup();
}
