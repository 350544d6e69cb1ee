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
    // The CLIs, tools and scripts talk to a terminal on purpose.
    files: ['cli/**', 'tools/**', 'scripts/**'],
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
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**', '**/tools/**'] }] },
  },
  {
    files: ['api/**', 'cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/tools/**'] }] },
  },
  {
    // Tools use the engine as a client does: through the API, or by starting the whole service
    // (api/server.ts). The written-down exception: the in-process load test and the footprint
    // benchmark measure the charger runtime itself, so they may run it (engine/charger) with the
    // charger's public ports (actors/charger/charger-ports.ts), and the message log's cost with the
    // log's standalone form (engine/message-log/standalone.ts), and drive them with generated traffic
    // (engine/traffic/local-traffic.ts, its config) or a chaos run (engine/chaos/local-chaos.ts, the
    // run it gives back: the blackout benchmark), in a process whose heap is tuned as the service's
    // (engine/platform/heap-tuning.ts), and the cost of the central system's measurements with the
    // engine's meter (engine/metrics/csms-measurements.ts). The scenario CLI runs scenarios through
    // the API; it reads the scenario document's schema and the run's result shape (types, no engine),
    // and runs a suite's cases through the API with the suite's verdicts (conformance/suite-result.ts,
    // no engine either).
    files: ['tools/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/(engine|actors|api)/(?!server\\.ts$|charger/charger-(runtime|link|ports)\\.ts$|message-log/standalone\\.ts$|traffic/(traffic-config|local-traffic)\\.ts$|chaos/(local-chaos|chaos-run)\\.ts$|metrics/csms-measurements\\.ts$|scenarios/scenario-(schema|result)\\.ts$|conformance/suite-result\\.ts$|platform/(config/config|log/logger|heap-tuning)\\.ts$)',
              message: 'tools use the engine as a client: see the exception written in eslint.config.js',
            },
          ],
        },
      ],
    },
  },
  {
    // The console (issue 14): plain ES modules run by the browser as they are served.
    files: ['api/console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'location',
          'history',
          'fetch',
          'sessionStorage',
          'localStorage',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'URLSearchParams',
          'AbortController',
          'TextDecoderStream',
          'structuredClone',
          'confirm',
          'addEventListener',
          'removeEventListener',
          'console',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
