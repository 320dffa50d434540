// Creates each service's database and its own login role (idempotent), as an admin:
//   ADMIN_DATABASE_URL=postgres://postgres:pw@db:5432/postgres \
//   node scripts/provision-databases.mjs postgres://firewatch_auth:pw@db:5432/firewatch_auth ...
// Each URL is a service's DATABASE_URL: its user becomes the role that owns its database
// and nothing else (see libs/db provisionServiceDatabase). Run by `docker compose` once
// before the services start; `pnpm start` does the same through dev-env.mjs.
import path from 'node:path';
import { root } from './dev-env.mjs';

const admin = process.env.ADMIN_DATABASE_URL;
const urls = process.argv.slice(2).length ? process.argv.slice(2) : (process.env.SERVICE_DATABASE_URLS ?? '').split(/\s+/).filter(Boolean);
if (!admin || urls.length === 0) {
  console.error('usage: ADMIN_DATABASE_URL=<superuser url> node scripts/provision-databases.mjs <service DATABASE_URL>...');
  process.exit(64);
}
const { provisionServiceDatabase } = await import(path.join(root, 'libs/db/dist/index.js'));
for (const url of urls) {
  const u = new URL(url);
  const target = { database: u.pathname.slice(1), role: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
  await provisionServiceDatabase(admin, target);
  console.log(JSON.stringify({ provisioned: target.database, role: target.role }));
}
