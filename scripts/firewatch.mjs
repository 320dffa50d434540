// `pnpm firewatch ...`: the CLI against the local system's auth database (or
// DATABASE_URL when set), building it first if needed. The local system's PostgreSQL is
// the one `pnpm start` uses (scripts/backing-services.mjs); an embedded one that is not
// running is started for the command's duration.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { resolveBacking } from './backing-services.mjs';
import { processEnvs, provisionDatabases, root } from './dev-env.mjs';

const cli = path.join(root, 'services/auth/dist/src/cli/main.js');
if (!fs.existsSync(cli)) {
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
let chosen = { stop: async () => undefined };
if (!process.env.DATABASE_URL) {
  try {
    chosen = await resolveBacking({ pgOnly: true, log: (line) => console.error(line) });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
const envs = processEnvs({ logLevel: 'warn', chosen: chosen.pg ? chosen : undefined });
// The local system's databases and roles, unless the caller names another database
// (the events database is `pnpm start`'s business: the CLI does not know the transport).
if (!process.env.DATABASE_URL) await provisionDatabases({ ...envs, events: null });
const env = { ...envs.auth, ...process.env };
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
await chosen.stop();
process.exit(result.status ?? 1);
