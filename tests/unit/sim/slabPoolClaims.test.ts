// The kernel pool's dispatcher claims a job's parts itself when no worker does
// (src-shared/sim/parallel/slabPool.ts, "Claiming parts"): on a busy machine a worker may not
// be scheduled for a whole time slice, and a job that waited for every worker to look in
// waited that long. Here workers that report ready (so the pool starts) and then sleep stand for
// them: every job must end on the dispatcher alone, with the bits of one thread, and rows with
// per-thread scratch must still find one scratch per range. Woken after hundreds of jobs they
// never saw, the workers join in and the bits stay the same.
import { Worker } from 'node:worker_threads'
import { afterAll, describe, expect, it } from 'vitest'
import { AmgHierarchy } from '../../../src-shared/sim/core/amg/amgHierarchy'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { copyCsr, type CsrMatrix, nnzOf, poisson3d } from '../../../src-shared/sim/core/sparse/csr'
import { multiplyCsrOn } from '../../../src-shared/sim/core/sparse/product'
import { CTRL_READY, SLAB_WORKER_SOURCE, SlabPool, type SlabWorkerHost, type SlabWorkerInit } from '../../../src-shared/sim/parallel/slabPool'
import { WasmKernels } from '../../../src-shared/sim/wasm/kernels'
import { WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

/**
 * Starts real worker threads that report ready and then sleep (up to a minute) until open()
 * before they run the worker loop; `woke` says whether any did.
 */
class SleepingHost implements SlabWorkerHost {
  private readonly gate = new Int32Array(new SharedArrayBuffer(8))
  private readonly workers: Worker[] = []
  spawn(init: SlabWorkerInit) {
    const code = `const { workerData } = require('node:worker_threads')
const { memory, control, gate } = workerData
Atomics.add(new Int32Array(memory.buffer, control, ${CTRL_READY + 1}), ${CTRL_READY}, 1)
const g = new Int32Array(gate)
Atomics.wait(g, 0, 0, 60000)
Atomics.store(g, 1, 1)
;(${SLAB_WORKER_SOURCE})(workerData)`
    const worker = new Worker(code, { eval: true, workerData: { ...init, gate: this.gate.buffer } })
    worker.unref()
    this.workers.push(worker)
    return { terminate: () => worker.terminate() }
  }
  get woke(): boolean {
    return Atomics.load(this.gate, 1) === 1
  }
  open(): void {
    Atomics.store(this.gate, 0, 1)
    Atomics.notify(this.gate, 0)
  }
}

const spec: GridSpec = { nx: 20, ny: 18, nz: 16, dx: 0.05, origin: [0, 0, 0] }
const cells = spec.nx * spec.ny * spec.nz

/** A pressure projection of a random field (range jobs and reductions), then a sparse product and an AMG setup (rows with per-thread scratch). */
function work(k: KernelBackend) {
  const vel = new MacGrid(spec, { kernels: k })
  let s = 7
  const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5
  for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = r()
  const fractions = new MacGrid(spec, { kernels: k })
  fractions.u.fill(1)
  fractions.v.fill(1)
  fractions.w.fill(1)
  const stats = new PressureSolver(spec, { kernels: k, tolerance: 1e-8 }).project(vel, fractions)
  const A = copyCsr(poisson3d(14, 13, 12), k)
  const product = multiplyCsrOn(k, A, A, true)
  const amg = new AmgHierarchy(copyCsr(poisson3d(14, 13, 12), k), { kernels: k })
  return { stats, u: Float32Array.from(vel.u), product: snapshot(product), coarse: snapshot(amg.levels[1].A) }
}

function snapshot(m: CsrMatrix) {
  const nnz = nnzOf(m)
  return { ptr: Array.from(m.rowPtr.subarray(0, m.n + 1)), col: Array.from(m.col.subarray(0, nnz)), val: Float64Array.from(m.val.subarray(0, nnz)) }
}

function expectSameBits(a: ReturnType<typeof work>, b: ReturnType<typeof work>): void {
  expect(a.stats).toEqual(b.stats)
  expect(Buffer.from(a.u.buffer).equals(Buffer.from(b.u.buffer))).toBe(true)
  for (const key of ['product', 'coarse'] as const) {
    expect(a[key].ptr).toEqual(b[key].ptr)
    expect(a[key].col).toEqual(b[key].col)
    expect(Buffer.from(a[key].val.buffer).equals(Buffer.from(b[key].val.buffer))).toBe(true)
  }
}

const disposers: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const d of disposers) await d()
})

describe('a pool whose workers are not running', () => {
  it('ends every job on the dispatcher, with the bits of one thread; a worker started late joins in with the same bits', async () => {
    const one = createKernelBackend('wasm', { threads: 1, initialBytes: 1 << 24 })
    disposers.push(() => one.dispose())
    const expected = work(one)

    const host = new SleepingHost()
    const kernels = new WasmKernels({ initialBytes: 1 << 24 })
    const pool = new SlabPool(kernels, host, { threads: 3, minParallelWork: 0 })
    const backend = new WasmKernelBackend(kernels, pool, { strict: true })
    disposers.push(() => backend.dispose())
    // Before, the dispatcher waited for every worker to look in: the first job lasted until the
    // workers' minute of sleep was over.
    const alone = work(backend)
    expect(host.woke).toBe(false)
    expect(pool.parallelJobs).toBeGreaterThan(200)
    expectSameBits(alone, expected)

    // Hundreds of jobs have gone by when the workers start looking.
    host.open()
    const jobs = pool.parallelJobs
    const joined = work(backend)
    expect(pool.parallelJobs - jobs).toBeGreaterThan(200)
    expectSameBits(joined, expected)
  })
})
