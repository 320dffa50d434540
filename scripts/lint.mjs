// `pnpm lint` (and the test command's first step after the build): ESLint, Prettier's
// check, dependency-cruiser's import-graph rules (no cycle; domain code free of express,
// knex and amqplib and from data/; data depends on domain for types only), over the whole
// workspace, and the type check of the packages' tests: Jest only transpiles them
// (ts-jest, isolatedModules), and `tsc -b` builds src/ and tests/ but not libs/, services/
// and gateway/'s test/ folders, so without this a test could call what no longer exists.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './dev-env.mjs';

const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const steps = [
  ['tsc (tests)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.tests.json']],
  ['eslint', [bin('eslint', 'bin/eslint.js'), '.']],
  ['prettier --check', [bin('prettier', 'bin/prettier.cjs'), '--check', '--log-level', 'warn', '.']],
  [
    'dependency-cruiser',
    [
      bin('dependency-cruiser', 'bin/dependency-cruiser.mjs'),
      'libs',
      'services',
      'gateway',
      'tests',
      'scripts',
      'bench',
      '--config',
      '.dependency-cruiser.cjs',
    ],
  ],
];

for (const [label, args] of steps) {
  console.log(`> ${label}`);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
