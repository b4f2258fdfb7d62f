import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(root, 'src-main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
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
