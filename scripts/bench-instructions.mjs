// `npm run bench:instructions [-- --res 32 --reps 10 --kernel move|splat|levelset|surface|all]`:
// the instructions each of the liquid's per-marker kernels executes per marker, counted by
// valgrind's callgrind (apt: valgrind) around `eddy bench markers`. On this shared 2-core machine
// wall-clock times of one build swing by up to 1.6x within minutes, which hides a 10% change;
// the instructions of the generated code do not swing (two runs of one build agree to a few
// in a thousand), so a kernel change can be judged by them, and then confirmed in time by the
// scene benches.
//
// How: node runs single-threaded with WebAssembly compiled by TurboFan up front (no Liftoff
// tier, no lazy compilation); the command runs once with --reps 0 (the setup alone) and once per
// kernel with --reps N; the difference in generated code's instructions over N times the
// marker count is the kernel's instructions per marker. Memory stalls are not counted: the
// kernels here were measured about three quarters compute-bound (all markers in one cell,
// where every sample hits L1, took about 0.75 of the time).
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
  // Generated code only (WebAssembly and optimised JavaScript: no symbol, an address above 4 GiB
  // for a name), so the garbage collector and the compilers, which run at different moments
  // from one run to the next, are left out: the totals of one build then agree to about 0.3%
  // (with them, to about 20%).
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 1 << 28 })
  if (annotated.status !== 0) throw new Error(`callgrind_annotate failed: ${annotated.stderr}`)
  let generated = 0
  for (const line of annotated.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+\?\?\?:0x0*[1-9a-f][0-9a-f]{8,}\b/.exec(line)
    if (m) generated += Number(m[1].replaceAll(',', ''))
  }
  const markers = /"markers":(\d+)/.exec(run.stdout)
  if (!(generated > 0) || !markers) throw new Error('could not read the instruction count or the marker count')
  return { instructions: generated, markers: Number(markers[1]) }
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
