// `pnpm bench:gateway-metrics`: what the gateway's request metrics cost. The gateway alone
// (credentials from a stub, rate limits in memory, a trivial upstream, each in its own
// process) under autocannon, without and with its metrics, in alternating pairs; reports
// req/s and the gateway's CPU time per request of each, and their ratios.
//   BENCH_DURATION=8 BENCH_CONNECTIONS=32 BENCH_ROUNDS=3 [BENCH_DEFAULT_METRICS=0] pnpm bench:gateway-metrics
// (BENCH_DEFAULT_METRICS=0 leaves Node's process metrics out of the "with" runs.)
import { spawn } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import { build, cpuSeconds, freePort } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'bench-token';

async function upstreamRole() {
  const body = JSON.stringify({ data: { type: 'environments', id: '1', attributes: { name: 'Production' } } });
  http
    .createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) }).end(body);
    })
    .listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
}

async function gatewayRole() {
  const { createGatewayApp } = await import('../gateway/dist/app.js');
  const { parseGatewayConfig } = await import('../gateway/dist/config.js');
  const { createCredentialResolver } = await import('../gateway/dist/domain/credential-resolver.js');
  const { createMemoryRateLimitStore } = await import('../gateway/dist/data/memory-rate-limit.store.js');
  const { createPrincipalSigner } = await import('../libs/auth/dist/index.js');
  const { createLogger } = await import('../libs/logger/dist/index.js');
  const { createMetrics } = await import('../libs/metrics/dist/index.js');
  const { TEST_PRINCIPAL_KEYS, testPrincipal } = await import('../libs/testing/dist/index.js');
  const many = '1000000000';
  const config = parseGatewayConfig({
    PRINCIPAL_SIGNING_KEY: JSON.stringify(TEST_PRINCIPAL_KEYS.privateKey),
    SYSTEM_TOKEN_SECRET: 'b'.repeat(43),
    AUTH_SERVICE_URL: 'http://127.0.0.1:1',
    INCIDENT_CONFIG_URL: process.env.UPSTREAM_URL,
    RATE_LIMIT_TEAM_READS: many,
    RATE_LIMIT_USER_READS: many,
    METRICS_PUBLIC: 'true',
  });
  const principal = testPrincipal();
  const source = { resolve: async () => ({ principal, rateLimits: { read: 1e9, write: 1e9 } }), ping: async () => undefined };
  const { app } = createGatewayApp({
    config,
    logger: createLogger({ service: 'gateway', level: 'info' }),
    rateLimitStore: createMemoryRateLimitStore(),
    rateLimitStoreKind: 'memory',
    credentialResolver: createCredentialResolver({ source, ttlMs: 3_600_000 }),
    signer: createPrincipalSigner({ privateKey: config.PRINCIPAL_SIGNING_KEY }),
    metrics:
      process.env.WITH_METRICS === '1'
        ? createMetrics({ service: 'gateway', defaultMetrics: process.env.BENCH_DEFAULT_METRICS !== '0' })
        : undefined,
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
}

function child(env) {
  const proc = spawn(process.execPath, [new URL(import.meta.url).pathname], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', () => resolve(proc));
    proc.once('exit', (code) => reject(new Error(`${env.BENCH_ROLE} exited ${code}`)));
  });
}

const load = (url, seconds) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${TOKEN}` } }, (err, r) =>
      err ? reject(err) : resolve(r),
    ),
  );

async function measure(upstreamUrl, withMetrics) {
  const port = await freePort();
  const gateway = await child({
    BENCH_ROLE: 'gateway',
    PORT: String(port),
    UPSTREAM_URL: upstreamUrl,
    WITH_METRICS: withMetrics ? '1' : '0',
  });
  try {
    const url = `http://127.0.0.1:${port}/v1/environments/1`;
    await load(url, 2); // warm-up: JIT, sockets, the credential cache
    const before = cpuSeconds(gateway.pid);
    const r = await load(url, duration);
    const cpuUs = ((cpuSeconds(gateway.pid) - before) / r.requests.total) * 1e6;
    if (withMetrics) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      if (!/firewatch_http_requests_total\{[^}]*route="\/v1\/environments"/.test(text)) throw new Error('no request counted');
    }
    return { rps: r.requests.average, cpu_us: Math.round(cpuUs), non2xx: r.non2xx, errors: r.errors };
  } finally {
    gateway.kill();
  }
}

if (process.env.BENCH_ROLE === 'upstream') await upstreamRole();
else if (process.env.BENCH_ROLE === 'gateway') await gatewayRole();
else {
  build('gateway', 'libs/metrics', 'libs/testing');
  const upstreamPort = await freePort();
  const upstream = await child({ BENCH_ROLE: 'upstream', PORT: String(upstreamPort) });
  try {
    const rows = [];
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so warming of the machine favours neither.
      const order = round % 2 ? [false, true] : [true, false];
      for (const withMetrics of order)
        rows.push({
          round,
          metrics: withMetrics ? 'with' : 'without',
          ...(await measure(`http://127.0.0.1:${upstreamPort}`, withMetrics)),
        });
    }
    console.log(`\nGET /v1/environments/{id} through the gateway alone, ${connections} connections, ${duration}s each`);
    console.table(rows);
    const mean = (label, key) => rows.filter((r) => r.metrics === label).reduce((s, r) => s + r[key], 0) / rounds;
    console.log(`throughput with/without metrics: ${((mean('with', 'rps') / mean('without', 'rps')) * 100).toFixed(1)} %`);
    console.log(
      `gateway CPU per request with/without metrics: ${((mean('with', 'cpu_us') / mean('without', 'cpu_us')) * 100).toFixed(1)} %`,
    );
  } finally {
    upstream.kill();
  }
}
