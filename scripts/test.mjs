// `pnpm test`: type-checks and builds every package, lints the workspace (scripts/lint.mjs),
// then runs every test suite (unit, component, end-to-end) against real PostgreSQL,
// RabbitMQ and Redis. On a machine without RabbitMQ or Redis (nor Docker to start them),
// it leaves out the suites that need them and says which and why; in CI (CI set) a missing
// server fails the run instead, since CI must run everything.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './dev-env.mjs';
import { absentServers, leaveOutRefusal, suitesNeeding } from './test-selection.mjs';

function run(args, label) {
  console.log(`\n> ${label}`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run([path.join(root, 'node_modules/typescript/bin/tsc'), '-b'], 'tsc -b (type-check and build)');
run([path.join(root, 'scripts/lint.mjs')], 'lint (ESLint, Prettier, dependency-cruiser)');
const absent = await absentServers();
const refusal = leaveOutRefusal(absent);
if (refusal) {
  console.error(`\n${refusal}`);
  process.exit(1);
}
const leftOut = suitesNeeding(root, absent);
if (leftOut.length) {
  console.log(
    `\n${absent.join(' and ')} not found (no TEST_*_URL, nothing on the default port, no Docker): leaving out ${leftOut.length} suites that need them:`,
  );
  for (const { file, needs } of leftOut) console.log(`  ${file} (needs ${needs.join(', ')})`);
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
process.env.FIREWATCH_TESTS_WITHOUT = absent.join(',');
run(
  [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    path.join(root, 'node_modules/jest/bin/jest.js'),
    '--ci',
    ...process.argv.slice(2),
    // Last: the option takes every argument after it, path filters included.
    ...(leftOut.length ? ['--testPathIgnorePatterns', '/node_modules/', '/dist/', ...leftOut.map(({ file }) => `${escape(file)}$`)] : []),
  ],
  'jest',
);
