// ESLint for the whole workspace (`pnpm lint`). Formatting is Prettier's (`pnpm format`);
// the import graph's rules are dependency-cruiser's (`.dependency-cruiser.cjs`).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const testFiles = ['**/test/**', 'tests/**', 'bench/**', 'libs/testing/**', 'libs/service-testing/**'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.firewatch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // Unused parameters named with a leading underscore are part of a signature.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Production code loads statically: a dynamic import() there has only ever hidden a cycle.
    files: ['libs/*/src/**/*.ts', 'services/*/src/**/*.ts', 'gateway/src/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'No dynamic import() in production code: import statically.' },
      ],
    },
  },
  {
    // Tests poke at untyped JSON bodies; `any` there is a reading aid, not a contract.
    files: testFiles,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
