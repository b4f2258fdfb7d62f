import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname + '/..',
  // The renderer's managers are `.svelte.ts` modules: their runes need the Svelte compiler, and Svelte's
  // browser build (the server build has no reactivity). Their tests say `@vitest-environment jsdom`.
  plugins: [svelte()],
  resolve: { conditions: ['browser'] },
  test: {
    include: ['test/node/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers in tests bind to 127.0.0.1:0; nothing here needs isolation between files beyond that.
    pool: 'forks',
  },
});
