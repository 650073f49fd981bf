// Strict type check of all three layers, each with only the globals it may use:
// src-shared without Node or DOM, src-main (+ tests, scripts) with Node, src-renderer with DOM.
import { join } from 'node:path'
import { ROOT, run } from './lib/ensure.mjs'

const bin = (n) => join(ROOT, 'node_modules/.bin', n)
const steps = [
  ['shared (no Node, no DOM)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.shared.json']],
  ['main, unit tests (Node)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.main.json']],
  ['end-to-end tests (Node + page code)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.e2e.json']],
  ['renderer (DOM, Svelte)', bin('svelte-check'), ['--tsconfig', './tsconfig.renderer.json', '--output', 'human', '--threshold', 'error']],
]
let failed = 0
for (const [label, cmd, args] of steps) {
  console.log(`typecheck: ${label}`)
  if (run(cmd, args) !== 0) {
    failed++
    console.log(`typecheck FAILED: ${label}`)
  }
}
process.exit(failed ? 1 : 0)
