import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname + '/..',
  test: {
    include: ['test/node/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers in tests bind to 127.0.0.1:0; nothing here needs isolation between files beyond that.
    pool: 'forks',
  },
});
