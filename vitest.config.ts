import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string): string => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Most specific first: `@fulfil/core/testing` must win over `@fulfil/core`.
    alias: [
      {
        find: /^@fulfil\/core\/testing\/fixtures$/,
        replacement: src('core/src/testing/fixtures.ts'),
      },
      { find: /^@fulfil\/core\/xml$/, replacement: src('core/src/wire/xml-text.ts') },
      { find: /^@fulfil\/core\/testing$/, replacement: src('core/src/testing/index.ts') },
      { find: /^@fulfil\/core$/, replacement: src('core/src/index.ts') },
      { find: /^@fulfil\/storage-kysely$/, replacement: src('storage-kysely/src/index.ts') },
      { find: /^@fulfil\/storage-sqlite$/, replacement: src('storage-sqlite/src/index.ts') },
      { find: /^@fulfil\/storage-postgres$/, replacement: src('storage-postgres/src/index.ts') },
      { find: /^@fulfil\/server$/, replacement: src('server/src/index.ts') },
      { find: /^@fulfil\/console$/, replacement: src('console/src/index.ts') },
      { find: /^@fulfil\/client$/, replacement: src('client/src/index.ts') },
      { find: /^@fulfil\/geo$/, replacement: src('geo/src/index.ts') },
      { find: /^@fulfil\/testkit$/, replacement: src('testkit/src/index.ts') },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'examples/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    // A poll waits for what must come; on a loaded machine (a browser, two workers) it can take
    // longer than the 1 s default, and waiting longer changes nothing for a test that passes.
    // Shorter than the test timeout, so a poll that never succeeds says what it waited for.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Every run ends with the tests it skipped and why (scripts/skipped-tests.ts).
    reporters: ['default', fileURLToPath(new URL('./scripts/skipped-tests.ts', import.meta.url))],
  },
});
