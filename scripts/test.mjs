// `pnpm test`: type-checks and builds every package, lints the workspace (scripts/lint.mjs),
// then runs every test suite (unit, component, end-to-end) against real PostgreSQL,
// RabbitMQ and Redis.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './dev-env.mjs';

function run(args, label) {
  console.log(`\n> ${label}`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run([path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], 'tsc -b (type-check and build)');
run([path.join(root, 'scripts/lint.mjs')], 'lint (ESLint, Prettier, dependency-cruiser)');
run(
  [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '--ci',
    ...process.argv.slice(2),
  ],
  'jest',
);
