import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { resolve } from 'node:path'

const r = (p: string): string => resolve(import.meta.dirname, p)

// main: the Electron main process (index), the headless host (host) and the CLI (cli) share
// the services in src-main/app; only src-main/electron imports 'electron'.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: r('src-main/electron/main.ts'),
          host: r('src-main/host/main.ts'),
          cli: r('src-main/cli/main.ts'),
          // Worker threads load this file by path (out/main/bakeWorker.js).
          bakeWorker: r('src-main/bake/bakeWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads must be CommonJS.
      rolldownOptions: { input: { preload: r('src-main/electron/preload.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: r('src-renderer'),
    base: './',
    plugins: [svelte()],
    build: {
      outDir: r('out/renderer'),
      chunkSizeWarningLimit: 8000,
      rolldownOptions: { input: r('src-renderer/index.html') },
    },
  },
})
