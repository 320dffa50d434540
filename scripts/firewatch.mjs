// `pnpm firewatch ...`: the CLI against the local system's auth database (or
// DATABASE_URL when set), building it first if needed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { processEnvs, provisionDatabases, root } from './dev-env.mjs';

const cli = path.join(root, 'services/auth/dist/src/cli/main.js');
if (!fs.existsSync(cli)) {
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const envs = processEnvs({ logLevel: 'warn' });
// The local system's databases and roles, unless the caller names another database.
if (!process.env.DATABASE_URL) await provisionDatabases(envs);
const env = { ...envs.auth, ...process.env };
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
