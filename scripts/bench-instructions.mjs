// `npm run bench:instructions [-- --res 32 --reps 10 --kernel move|splat|levelset|surface|all]`:
// the instructions each of the liquid's per-marker kernels executes per marker, counted by
// valgrind's callgrind (apt: valgrind) around `eddy bench markers`. On this shared 2-core machine
// wall-clock times of one build swing by up to 1.6x within minutes, which hides a 10% change;
// instruction counts do not swing (two runs of the same build agree to 0.03%), so a kernel
// change can be judged by them, and then confirmed in time by the scene benches.
//
// How: node runs single-threaded (no concurrent compilation or GC, so the setup's count repeats)
// with WebAssembly compiled by TurboFan up front (no Liftoff tier, no lazy compilation); the
// command runs once with --reps 0 (the setup alone) and once per kernel with --reps N; the
// difference over N times the marker count is the kernel's instructions per marker. Memory
// stalls are not counted: the kernels here were measured about three quarters compute-bound
// (all markers in one cell, where every sample hits L1, took about 0.75 of the time).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, ensureBuild, ensureNodeModules } from './lib/ensure.mjs'

const KERNELS = ['move', 'splat', 'levelset', 'surface']
const argv = process.argv.slice(2)
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : def
}
const res = Number(opt('res', '32'))
const reps = Number(opt('reps', '10'))
const which = opt('kernel', 'all')
const kernels = which === 'all' ? KERNELS : [which]
if (!kernels.every((k) => KERNELS.includes(k)) || !(reps >= 1) || !(res >= 8)) {
  console.error(`usage: npm run bench:instructions -- [--res 32] [--reps 10] [--kernel ${KERNELS.join('|')}|all]`)
  process.exit(2)
}
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench:instructions needs valgrind (Debian: apt-get install valgrind)')
  process.exit(1)
}
ensureNodeModules()
ensureBuild()

const dir = mkdtempSync(join(tmpdir(), 'eddy-callgrind-'))
/** Instructions executed by `eddy bench markers --kernel k --reps r`, and its marker count. */
function count(kernel, r) {
  const out = join(dir, `${kernel}-${r}.out`)
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, '--smc-check=all-non-file', process.execPath, '--single-threaded', '--no-liftoff', '--no-wasm-lazy-compilation', join(ROOT, 'out/main/cli.js'), 'bench', 'markers', '--kernel', kernel, '--reps', String(r), '--res', String(res)],
    { encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`eddy bench markers failed under valgrind:\n${run.stdout}\n${run.stderr}`)
  const total = /^summary:\s+(\d+)/m.exec(readFileSync(out, 'utf8'))
  const markers = /"markers":(\d+)/.exec(run.stdout)
  if (!total || !markers) throw new Error('could not read the instruction count or the marker count')
  return { instructions: Number(total[1]), markers: Number(markers[1]) }
}

try {
  console.log(`instructions per marker (callgrind; eddy bench markers --res ${res}, ${reps} calls each, the setup's count subtracted)`)
  const setup = count(kernels[0], 0)
  const result = {}
  console.log('| kernel | instructions a marker |\n|---|---|')
  for (const k of kernels) {
    const c = count(k, reps)
    const perMarker = (c.instructions - setup.instructions) / (reps * c.markers)
    result[k] = Math.round(perMarker)
    console.log(`| ${k} | ${perMarker.toFixed(0)} |`)
  }
  console.log(`EDDY_BENCH ${JSON.stringify({ scene: 'instructions', res, reps, markers: setup.markers, instructionsPerMarker: result })}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
