// Strict type check of all three layers, each with only the globals it may use:
// src-shared without Node or DOM, src-main (+ tests, scripts) with Node, src-renderer with DOM.
// The four checkers run side by side, one per core, each one's output printed whole when it
// ends, in the order below. tsc already keeps about 1.5 cores busy (its collector and compiler
// threads), so on the 2-core machine this is 54 -> 51 s; it is more where there are more cores.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './lib/ensure.mjs'

const bin = (n) => join(ROOT, 'node_modules/.bin', n)
const steps = [
  // The two longest first, so the short ones fill in behind them.
  ['main, unit tests (Node)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.main.json']],
  ['renderer (DOM, Svelte)', bin('svelte-check'), ['--tsconfig', './tsconfig.renderer.json', '--output', 'human', '--threshold', 'error']],
  ['end-to-end tests (Node + page code)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.e2e.json']],
  ['shared (no Node, no DOM)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.shared.json']],
]

/** Runs one checker with its output collected; resolves to its exit code and output. */
function check(cmd, args) {
  return new Promise((resolve) => {
    let output = ''
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', (e) => resolve({ code: 1, output: `${output}${cmd} could not start: ${e.message}\n` }))
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

const results = new Array(steps.length)
let next = 0
async function worker() {
  while (next < steps.length) {
    const i = next++
    results[i] = await check(steps[i][1], steps[i][2])
  }
}
await Promise.all(Array.from({ length: Math.min(steps.length, availableParallelism()) }, worker))

let failed = 0
steps.forEach(([label], i) => {
  console.log(`typecheck: ${label}`)
  if (results[i].output) process.stdout.write(results[i].output)
  if (results[i].code !== 0) {
    failed++
    console.log(`typecheck FAILED: ${label}`)
  }
})
process.exit(failed ? 1 : 0)
