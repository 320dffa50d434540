// `pnpm bench:oauth`: on a private copy of the system, reports
//   1. client-credentials token issuance (POST /oauth/token) per second,
//   2. gateway throughput of GET /v1/environments/{id} with an OAuth token vs an API key,
//   3. the uncached resolve cost (POST /internal/credentials/resolve) of both credentials.
//   BENCH_DURATION=10 BENCH_CONNECTIONS=32 pnpm bench:oauth
import autocannon from 'autocannon';
import path from 'node:path';
import { processEnvs, PROCESSES, provisionBroker, provisionDatabases, root } from '../scripts/dev-env.mjs';
import { build, createBenchSystem, freePort } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

build();
const suffix = `_bench_oauth_${process.pid}`;
const ports = { gateway: await freePort(), auth: await freePort(), incidentConfig: await freePort() };
const envs = processEnvs({ ports, dbSuffix: suffix, logLevel: 'warn', secret: 'o'.repeat(43) });
await provisionDatabases(envs);
await provisionBroker(envs);
// OAuth tokens use the gateway's default limits (per client and user): lift them for the run.
Object.assign(envs.gateway, { RATE_LIMIT_READS: '1000000', RATE_LIMIT_WRITES: '1000000' });
envs.auth.REDIS_KEY_PREFIX = `fw-bench-${process.pid}:`;
const system = createBenchSystem({ databases: [`firewatch_auth${suffix}`, `firewatch_incident_config${suffix}`], queues: envs.queues });

const run = (opts) =>
  new Promise((resolve, reject) => autocannon({ connections, duration, ...opts }, (err, r) => (err ? reject(err) : resolve(r))));
const summary = (r) => ({ rps: r.requests.average, p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors });

try {
  await system.start(
    PROCESSES.filter((p) => ['auth', 'incident-config', 'gateway'].includes(p.name)).map((p) => ({ ...p, env: envs[p.name] })),
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
  const apiKey = key.token;
  const app = cli('apps', 'create', '--team-id', String(boot.team.id), '--name', 'bench', '--scopes', 'ir.environments:read');
  const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
  const tokenRequest = {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  };
  const issued = await fetch(`${envs.urls.auth}/oauth/token`, tokenRequest).then((r) => r.json());
  const oauthToken = issued.access_token;
  const created = await fetch(`${envs.urls.gateway}/v1/environments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'environments', attributes: { name: 'Production' } } }),
  }).then((r) => r.json());
  const envUrl = `${envs.urls.gateway}/v1/environments/${created.data.id}`;

  const { createSystemTokens } = await import(path.join(root, 'libs/auth/dist/index.js'));
  const systemToken = await createSystemTokens(envs.auth.SYSTEM_TOKEN_SECRET, { ttlSeconds: 3600 }).sign('bench');
  const resolve = (token) => ({
    url: `${envs.urls.auth}/internal/credentials/resolve`,
    method: 'POST',
    headers: { authorization: `Bearer ${systemToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

  const targets = {
    'token issuance (client_credentials)': { url: `${envs.urls.auth}/oauth/token`, ...tokenRequest },
    'gateway GET, API key': { url: envUrl, headers: { authorization: `Bearer ${apiKey}` } },
    'gateway GET, OAuth token': { url: envUrl, headers: { authorization: `Bearer ${oauthToken}` } },
    'resolve (uncached), API key': resolve(apiKey),
    'resolve (uncached), OAuth token': resolve(oauthToken),
  };
  for (const t of Object.values(targets)) await run({ ...t, duration: 2 }); // warm-up
  const results = {};
  for (const [name, t] of Object.entries(targets)) results[name] = summary(await run(t));
  console.log(`\nOAuth benchmark: ${connections} connections, ${duration}s each`);
  console.table(results);
  const ratio = results['gateway GET, OAuth token'].rps / results['gateway GET, API key'].rps;
  console.log(`gateway throughput OAuth token / API key: ${(ratio * 100).toFixed(1)} %`);
  console.log(`client-credentials tokens issued per second: ${results['token issuance (client_credentials)'].rps}`);
} finally {
  await system.cleanup();
}
