// Kernel timings at 128^3 (EDDY_BENCH_N to change): TypeScript reference vs WebAssembly SIMD
// on 1 thread vs the worker pool on 2 threads (EDDY_BENCH_THREADS), plus one full pressure
// projection, plus the sparse CSR kernels on a 7-point Poisson matrix of (N/2)^3 rows (SpMV,
// a symmetric multicolour Gauss-Seidel sweep, block reductions, an SGS-preconditioned PCG
// solve). Prints medians; never asserts on time. Benchmark on an idle machine.
//   npx vitest run --config tests/bench/vitest.config.ts kernels
import { availableParallelism, cpus } from 'node:os'
import { afterAll, it } from 'vitest'
import { Advector } from '../../src-shared/sim/core/advect'
import { computeFaceFractions, type DomainSides } from '../../src-shared/sim/core/boundaries'
import { type GridSpec, MacGrid, ScalarField } from '../../src-shared/sim/core/grid'
import { type KernelBackend, TS_KERNELS } from '../../src-shared/sim/core/kernelBackend'
import { MultigridPreconditioner } from '../../src-shared/sim/core/multigrid'
import { RELAX_RUNS } from '../../src-shared/sim/core/kernelRows'
import { PressureSolver } from '../../src-shared/sim/core/pressure'
import { VorticityConfinement } from '../../src-shared/sim/core/vorticity'
import { PcgSolver } from '../../src-shared/sim/core/pcg'
import { copyCsr, poisson3d } from '../../src-shared/sim/core/sparse/csr'
import { CsrOperator, MulticolorGaussSeidel, SgsPreconditioner, SparseVectorOps, spmv, spResidual } from '../../src-shared/sim/core/sparse/ops'
import { createWasmBackend, WasmKernelBackend } from '../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../src-main/sim/workerPool'

const N = Number(process.env.EDDY_BENCH_N ?? 128)
const ONLY = process.env.EDDY_BENCH_ONLY // a substring of the kernel names to time
const THREADS = Number(process.env.EDDY_BENCH_THREADS ?? 2)
const spec: GridSpec = { nx: N, ny: N, nz: N, dx: 1 / N, origin: [0, 0, 0] }
const n = N * N * N
const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** Median ms of `reps` runs after `warm` warm-up runs. */
function time(fn: () => void, reps = 15, warm = 3): number {
  for (let i = 0; i < warm; i++) fn()
  const t: number[] = []
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now()
    fn()
    t.push(performance.now() - t0)
  }
  return median(t)
}

interface Setup {
  k: KernelBackend
  fractions: MacGrid
  vel: MacGrid
  x: Float64Array
  b: Float64Array
  out: Float64Array
  partial: Float64Array
  density: ScalarField
  dst: ScalarField
  mg: MultigridPreconditioner
}

function setup(k: KernelBackend): Setup {
  const opts = { kernels: k }
  const solid = k.f32(n)
  for (let kk = 0; kk < N; kk++)
    for (let j = 0; j < N; j++)
      for (let i = 0; i < N; i++) {
        const d = Math.hypot(i - 0.5 * N, j - 0.4 * N, kk - 0.5 * N) - 0.2 * N
        solid[i + N * (j + N * kk)] = Math.min(1, Math.max(0, 0.5 - d / 1.7))
      }
  const fractions = new MacGrid(spec, opts)
  computeFaceFractions(solid, sides, fractions)
  const r = rng(1)
  const vel = new MacGrid(spec, opts)
  for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = (r() - 0.5) * 2
  const x = k.f64(n)
  const b = k.f64(n)
  for (let i = 0; i < n; i++) {
    x[i] = r() - 0.5
    b[i] = r() - 0.5
  }
  const density = new ScalarField(spec, opts)
  for (let i = 0; i < n; i++) density.data[i] = r()
  const mg = new MultigridPreconditioner(N, N, N, opts)
  mg.setup(fractions.u, fractions.v, fractions.w)
  return { k, fractions, vel, x, b, out: k.f64(n), partial: k.f64(N), density, dst: new ScalarField(spec, opts), mg }
}

const rows: Record<string, Record<string, number>> = {}
function record(kernel: string, column: string, ms: number): void {
  rows[kernel] ??= {}
  rows[kernel][column] = ms
}

function bench(column: string, s: Setup, fast?: KernelBackend): void {
  const { k, fractions: f, x, b, out, partial } = s
  const T = (name: string, fn: () => void, reps?: number, warm?: number) => {
    if (ONLY === undefined || name.includes(ONLY)) record(name, column, time(fn, reps, warm))
  }
  const cellsPlane = N * N
  T('matvec (applyPoisson)', () => k.applyPoisson(out, x, f.u, f.v, f.w, N, N, N))
  T('residual', () => k.residual(out, b, x, f.u, f.v, f.w, N, N, N))
  T('RB Gauss-Seidel, two half sweeps', () => {
    k.gaussSeidelColor(x, b, f.u, f.v, f.w, N, N, N, 0)
    k.gaussSeidelColor(x, b, f.u, f.v, f.w, N, N, N, 1)
  })
  T('RB Gauss-Seidel, fused sweep', () => k.gaussSeidelSweep(x, b, f.u, f.v, f.w, N, N, N, 0))
  T('damped Jacobi sweep', () => k.jacobi(out, x, b, f.u, f.v, f.w, N, N, N, 2 / 3))
  T('dot (exact order)', () => k.dot(x, b, cellsPlane, N, partial))
  if (fast) T('dot (two SIMD lanes)', () => fast.dot(x, b, cellsPlane, N, partial))
  const s2 = k.f64(n)
  const q = k.f64(n)
  T('updateIterate (exact order)', () => k.updateIterate(out, s2, x, q, 1e-9, cellsPlane, N, partial))
  if (fast) T('updateIterate (two SIMD lanes)', () => fast.updateIterate(out, s2, x, q, 1e-9, cellsPlane, N, partial))
  T('updateSearch', () => k.updateSearch(s2, x, 0.5, cellsPlane, N))
  const [l0, l1] = s.mg.levels
  T('restrict (to 64^3)', () => k.restrict(l1.b, x, N, N, N, l1.nx, l1.ny, l1.nz, l0.tx!, l0.ty!, l0.tz!, l0.scratch))
  T('prolongAdd (from 64^3)', () => k.prolongAdd(out, l1.x, l0.active, N, N, N, l1.nx, l1.ny, l0.tx!, l0.ty!, l0.tz!))
  T(`boundary band relax (${l0.redCells + l0.blackCells} cells in ${(l0.redRuns.length + l0.blackRuns.length) / 2} runs)`, () => {
    k.run(RELAX_RUNS, x, b, f.u, f.v, f.w, N, N, N, l0.redRuns, l0.redCells)
    k.run(RELAX_RUNS, x, b, f.u, f.v, f.w, N, N, N, l0.blackRuns, l0.blackCells)
  })
  T('multigrid V-cycle', () => s.mg.apply(b, out), 5, 1)
  const vel = s.vel
  T('advect scalar, semi-Lagrangian', () => k.advect(s.dst.data, s.density.data, -1, vel.u, vel.v, vel.w, N, N, N, 0.5, false, null), 5, 1)
  const adv = new Advector(spec, { kernels: k })
  T('advect scalar, MacCormack (3 passes)', () => adv.advectScalar(s.dst.data, s.density.data, vel, 0.02, {}), 5, 1)
  const conf = new VorticityConfinement(spec, { kernels: k })
  T('vorticity confinement (3 passes)', () => conf.apply(vel, 0.3, 1e-6), 5, 1)
  T('buoyancy', () => k.addBuoyancy(vel.v, s.density.data, null, 0.1, 0, 0, 1e-6, N, N, N))
}

const disposers: KernelBackend[] = []
afterAll(async () => {
  for (const b of disposers) await b.dispose()
})

it(`kernel timings at ${N}^3`, () => {
  console.log(`machine: ${cpus()[0]?.model ?? '?'} x ${availableParallelism()} threads available; node ${process.version}; grid ${N}^3`)
  bench('TS', setup(TS_KERNELS))
  const w1 = createWasmBackend()
  bench('WASM 1T', setup(w1), new WasmKernelBackend(w1.kernels, w1.runner, { exactReductions: false }))
  const wp = createKernelBackend('wasm', { threads: THREADS }) as WasmKernelBackend
  disposers.push(wp)
  bench(`WASM ${THREADS}T`, setup(wp), new WasmKernelBackend(wp.kernels, wp.runner, { exactReductions: false }))
  const cols = ['TS', 'WASM 1T', `WASM ${THREADS}T`]
  const pad = (t: string, w: number) => t.padEnd(w)
  if (Object.keys(rows).length === 0) return
  const lines = [`${pad('ms (median)', 38)}${cols.map((c) => c.padStart(10)).join('')}${'TS/1T'.padStart(8)}${`1T/${THREADS}T`.padStart(8)}`]
  for (const [name, r] of Object.entries(rows)) {
    const cells = cols.map((c) => (r[c] === undefined ? '-' : r[c].toFixed(2)).padStart(10)).join('')
    const a = r.TS !== undefined ? (r.TS / r['WASM 1T']).toFixed(1) : '-'
    const p = (r['WASM 1T'] / r[`WASM ${THREADS}T`]).toFixed(2)
    lines.push(`${pad(name, 38)}${cells}${a.padStart(8)}${p.padStart(8)}`)
  }
  console.log(lines.join('\n'))
})

it.skipIf(ONLY !== undefined && !'pressure projection'.includes(ONLY))(`pressure projection (multigrid PCG, tolerance 1e-6) at ${N}^3`, () => {
  const lines: string[] = []
  const backends: [string, KernelBackend][] = [
    ['TS', TS_KERNELS],
    ['WASM 1T', createWasmBackend()],
    [`WASM ${THREADS}T`, createKernelBackend('wasm', { threads: THREADS })],
  ]
  for (const [name, k] of backends) {
    disposers.push(k)
    const s = setup(k)
    const solver = new PressureSolver(spec, { kernels: k, warmStart: false })
    const vel = new MacGrid(spec, { kernels: k })
    let stats = solver.project(s.vel, s.fractions) // warm-up (and JIT)
    const times: number[] = []
    for (let rep = 0; rep < 3; rep++) {
      vel.copyFrom(s.vel)
      // A fresh divergent field each time: perturb the projected one.
      for (let i = 0; i < vel.u.length; i += 7) vel.u[i] += 0.5
      const t0 = performance.now()
      stats = solver.project(vel, s.fractions)
      times.push(performance.now() - t0)
    }
    lines.push(`${name.padEnd(10)} ${median(times).toFixed(0).padStart(7)} ms  (${stats.iterations} iterations, residual ${stats.residual.toExponential(2)})`)
  }
  console.log(`pressure projection ${N}^3, box with a sphere, open top:\n${lines.join('\n')}`)
})

it.skipIf(ONLY !== undefined && !'sparse'.includes(ONLY))(`sparse CSR kernels, 7-point Poisson on ${N >> 1}^3 rows`, () => {
  const M = N >> 1
  const base = poisson3d(M, M, M)
  const cols = ['TS', 'WASM 1T', `WASM ${THREADS}T`]
  const table: Record<string, Record<string, number>> = {}
  const put = (name: string, col: string, ms: number) => {
    table[name] ??= {}
    table[name][col] = ms
  }
  const backends: [string, KernelBackend][] = [
    ['TS', TS_KERNELS],
    ['WASM 1T', createWasmBackend()],
    [`WASM ${THREADS}T`, createKernelBackend('wasm', { threads: THREADS })],
  ]
  const solves: string[] = []
  for (const [col, k] of backends) {
    disposers.push(k)
    const A = copyCsr(base, k)
    const n = A.n
    const r = rng(3)
    const x = k.f64(n)
    const b = k.f64(n)
    for (let i = 0; i < n; i++) {
      x[i] = r() - 0.5
      b[i] = r() - 0.5
    }
    const y = k.f64(n)
    const ops = new SparseVectorOps(n, k)
    const gs = new MulticolorGaussSeidel(A, k)
    const s2 = k.f64(n)
    const q = k.f64(n)
    put('SpMV', col, time(() => spmv(k, A, x, y)))
    put('residual b - A x', col, time(() => spResidual(k, A, x, b, y)))
    put(`symmetric multicolour GS (${gs.coloring.colors} colours)`, col, time(() => gs.symmetricSweep(x, b)))
    put('dot (fixed blocks)', col, time(() => ops.dot(x, b)))
    put('updateIterate (fixed blocks)', col, time(() => ops.updateIterate(y, s2, x, q, 1e-9)))
    put('updateSearch', col, time(() => ops.updateSearch(s2, x, 0.5)))
    const pcg = new PcgSolver(ops)
    const op = new CsrOperator(A, k)
    const prec = new SgsPreconditioner(A, k)
    let stats = pcg.solve(op, prec, b, y.fill(0), { tolerance: 1e-6 })
    const ms = time(
      () => {
        y.fill(0)
        stats = pcg.solve(op, prec, b, y, { tolerance: 1e-6 })
      },
      3,
      1,
    )
    put('PCG solve, SGS preconditioner, 1e-6', col, ms)
    solves.push(`${col.padEnd(10)} ${stats.iterations} iterations, residual ${stats.residual.toExponential(2)}`)
  }
  const lines = [`${'ms (median)'.padEnd(40)}${cols.map((c) => c.padStart(10)).join('')}${'TS/1T'.padStart(8)}${`1T/${THREADS}T`.padStart(8)}`]
  for (const [name, row] of Object.entries(table)) {
    const cells = cols.map((c) => (row[c] === undefined ? '-' : row[c].toFixed(2)).padStart(10)).join('')
    lines.push(`${name.padEnd(40)}${cells}${(row.TS / row['WASM 1T']).toFixed(1).padStart(8)}${(row['WASM 1T'] / row[`WASM ${THREADS}T`]).toFixed(2).padStart(8)}`)
  }
  console.log(`sparse kernels, ${base.n} rows, ${base.rowPtr[base.n]} nonzeros:\n${lines.join('\n')}\n${solves.join('\n')}`)
})
