// `pnpm migrate`: applies every service's pending migrations, each as the service's own
// role (the services also migrate at start-up; this runs them ahead, e.g. in the
// Kubernetes provisioning Job, so a failing migration stops a rollout in one place):
//   node scripts/migrate.mjs auth=postgres://firewatch_auth:pw@db:5432/firewatch_auth ...
// or the same `<service>=<DATABASE_URL>` pairs, space-separated, in SERVICE_DATABASE_URLS.
// Without any, the local system's databases (as `pnpm start` provisions them). The
// dispatcher shares the webhooks database and its migrations. Idempotent; concurrent runs
// take turns (libs/db migrate).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// dev-env.mjs (the local system's settings) is loaded only for the local run: the
// provisioning image runs this with explicit URLs.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const withoutPassword = (url) => Object.assign(new URL(url), { password: '' }).toString();

/** Each migrating service's migrations, as built by `tsc -b`. */
const MIGRATIONS = {
  auth: 'services/auth/dist/migrations/index.js',
  'incident-config': 'services/incident-config/dist/migrations/index.js',
  communications: 'services/communications/dist/migrations/index.js',
  'on-call': 'services/on-call/dist/migrations/index.js',
  webhooks: 'services/webhooks/dist/migrations/index.js',
};

// The local system's PostgreSQL is the one `pnpm start` uses, the embedded one included
// (started for this run when it is not running); `stopLocal` lets go of it.
let stopLocal = async () => undefined;
async function localTargets() {
  const { processEnvs, provisionDatabases } = await import('./dev-env.mjs');
  const { resolveBacking } = await import('./backing-services.mjs');
  const chosen = await resolveBacking({ pgOnly: true, log: (line) => console.error(line) });
  stopLocal = chosen.stop;
  const envs = processEnvs({ logLevel: 'warn', chosen });
  await provisionDatabases({ ...envs, events: null });
  return Object.keys(MIGRATIONS).map((service) => ({ service, url: envs[service].DATABASE_URL }));
}

function parse(pairs) {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    const service = pair.slice(0, at);
    if (!(service in MIGRATIONS)) {
      console.error(`"${service}" has no migrations (${Object.keys(MIGRATIONS).join(', ')}): give <service>=<DATABASE_URL>`);
      process.exit(64);
    }
    return { service, url: pair.slice(at + 1) };
  });
}

const pairs = process.argv.slice(2).length ? process.argv.slice(2) : (process.env.SERVICE_DATABASE_URLS ?? '').split(/\s+/).filter(Boolean);
const targets = pairs.length ? parse(pairs) : await localTargets();
const { openDatabase } = await import(pathToFileURL(path.join(root, 'libs/db/dist/index.js')).href);
for (const { service, url } of targets) {
  const { migrations } = await import(pathToFileURL(path.join(root, MIGRATIONS[service])).href);
  // Two connections: migrate holds one for its advisory lock while knex migrates on the other.
  const applied = [];
  const logger = { info: (_message, fields) => applied.push(...(fields?.applied ?? [])) };
  try {
    const knex = await openDatabase({ url, migrations, poolMax: 2, logger });
    await knex.destroy();
  } catch (err) {
    console.error(`${service}: migrating ${withoutPassword(url)} failed: ${err.message}`);
    await stopLocal();
    process.exit(1);
  }
  console.log(JSON.stringify({ migrated: service, database: new URL(url).pathname.slice(1), applied }));
}
await stopLocal();
