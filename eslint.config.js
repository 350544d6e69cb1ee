import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.data/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    // The CLIs and scripts talk to a terminal on purpose.
    files: ['cli/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read JSON bodies of many shapes; typing each one would add noise, not safety.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Imports point down only: api -> engine -> actors -> protocols.
    files: ['protocols/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/actors/**', '**/engine/**', '**/api/**', 'ws', 'pg', 'mqtt', 'koa'] },
      ],
    },
  },
  {
    files: ['actors/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/engine/**', '**/api/**', 'ws', 'pg', 'mqtt', 'koa'] },
      ],
    },
  },
  {
    files: ['engine/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**'] }] },
  },
);
