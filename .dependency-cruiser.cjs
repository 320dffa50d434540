/**
 * The import graph's rules, checked by `pnpm lint:deps` (and so by `pnpm lint` and the test
 * command). Type-only imports count: a cycle of types is still two modules that cannot be
 * read apart.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere: modules that need each other belong in one file or behind a name.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-framework-free',
      severity: 'error',
      comment: 'Domain code does not import express, knex or amqplib (dependencies point to the domain: http/queue -> domain <- data).',
      from: { path: '^(services/[^/]+|gateway)/src/domain/' },
      to: { dependencyTypesNot: ['type-only'], path: ['node_modules/(express|knex|amqplib)/'] },
    },
    {
      name: 'domain-does-not-import-http-or-queue',
      severity: 'error',
      comment: 'The domain does not reach up into its own transports.',
      from: { path: '^(services/[^/]+|gateway)/src/domain/' },
      to: { path: '^(services/[^/]+|gateway)/src/(http|queue)/' },
    },
    {
      name: 'data-imports-only-domain-types',
      severity: 'error',
      comment:
        'Data code implements what the domain declares and never calls it: from domain/ it imports types only (dependencies point to the domain: http/queue -> domain <- data).',
      from: { path: '^(services/[^/]+|gateway)/src/data/' },
      to: { dependencyTypesNot: ['type-only'], path: '^(services/[^/]+|gateway)/src/domain/' },
    },
    {
      name: 'domain-does-not-import-data',
      severity: 'error',
      comment:
        'The domain declares what it needs (repository interfaces, row types) and data implements it: domain code imports nothing from data/, types included, so the two point one way in both shapes.',
      from: { path: '^(services/[^/]+|gateway)/src/domain/' },
      to: { path: '^(services/[^/]+|gateway)/src/data/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.lint.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
