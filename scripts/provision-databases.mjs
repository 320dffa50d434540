// Creates each service's database and its own login role (idempotent), as an admin:
//   ADMIN_DATABASE_URL=postgres://postgres:pw@db:5432/postgres \
//   node scripts/provision-databases.mjs postgres://firewatch_auth:pw@db:5432/firewatch_auth ...
// Each URL is a service's DATABASE_URL (optionally as `<service>=<url>`, as scripts/migrate.mjs
// takes them): its user becomes the role that owns its database and nothing else (see
// libs/db provisionServiceDatabase). Run by `docker compose` and the Kubernetes Job once
// before the services start; `pnpm start` does the same through dev-env.mjs. On managed
// PostgreSQL, where no superuser exists, ADMIN_DATABASE_URL is a role with CREATEROLE and
// CREATEDB: what only a superuser may do is checked or skipped, and printed as `skipped`.
import path from 'node:path';
import { root } from './dev-env.mjs';

const admin = process.env.ADMIN_DATABASE_URL;
const urls = process.argv.slice(2).length ? process.argv.slice(2) : (process.env.SERVICE_DATABASE_URLS ?? '').split(/\s+/).filter(Boolean);
if (!admin || urls.length === 0) {
  console.error(
    'usage: ADMIN_DATABASE_URL=<superuser, or CREATEROLE and CREATEDB, url> node scripts/provision-databases.mjs [<service>=]<service DATABASE_URL>...',
  );
  process.exit(64);
}
const { provisionServiceDatabase } = await import(path.join(root, 'libs/db/dist/index.js'));
for (const entry of urls) {
  const u = new URL(entry.replace(/^[a-z-]+=/, ''));
  const target = { database: u.pathname.slice(1), role: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
  const { skipped } = await provisionServiceDatabase(admin, target);
  console.log(JSON.stringify({ provisioned: target.database, role: target.role, ...(skipped.length ? { skipped } : {}) }));
}
