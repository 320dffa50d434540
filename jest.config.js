// One Jest run over every package. Workspace libs resolve to their TypeScript sources,
// so tests never depend on a prior build.
const libs = [
  'config',
  'logger',
  'errors',
  'jsonapi',
  'db',
  'events',
  'auth',
  'testing',
  'resource-kit',
  'client-address',
  'concurrency',
  'http',
  'openapi',
  'secret-box',
  'service-testing',
  'kit-service',
  'metrics',
  'tracing',
];

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/gateway', '<rootDir>/tests'],
  testMatch: ['**/test/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: {
    [`^@firewatch/(${libs.join('|')})$`]: '<rootDir>/libs/$1/src/index.ts',
    '^@firewatch/webhooks/shared$': '<rootDir>/services/webhooks/src/shared.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  globalSetup: '<rootDir>/libs/testing/jest-global-setup.js',
  globalTeardown: '<rootDir>/libs/testing/jest-global-teardown.js',
  testTimeout: 30000,
};
