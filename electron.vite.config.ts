import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

/**
 * Native modules stay out of the main bundle: they are loaded from node_modules at run time (in a package, from
 * app.asar.unpacked, rebuilt for Electron by scripts/package.mjs).
 */
export const NATIVE_MODULES = ['better-sqlite3', 'keytar'];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // cli.js runs on plain Node too (npm run serve, npm run cli: scripts/cli.mjs), not only in Electron.
      target: 'node20.19',
      rollupOptions: {
        // The Electron app, and the command line (browser mode included) started from built code instead of tsx.
        input: { index: resolve(root, 'src-main/index.ts'), cli: resolve(root, 'src-main/cli.ts') },
        external: NATIVE_MODULES,
        // Chunks beside the entries: the code finds resources/, out/renderer and package.json relative to its own
        // file (import.meta.url, two folders up), as it does from src-main/<layer>/.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // One self-contained file per window: a sandboxed preload can require only 'electron', never a shared chunk.
      isolatedEntries: true,
      rollupOptions: {
        input: {
          index: resolve(root, 'src-preload/index.ts'),
          display: resolve(root, 'src-preload/display.ts'),
        },
        // A sandboxed preload cannot load ES modules, so it is emitted as CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // The screens load on every till start and over the LAN on a tablet display: ship them small.
      minify: true,
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
