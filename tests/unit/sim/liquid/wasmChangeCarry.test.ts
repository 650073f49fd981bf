// The pressure solve's change carried to the faces the markers reached (liquidSolver.ts
// carryChangeToMarkerFaces; changeCarryKernels.ts MARK_CHANGE and APPLY_CHANGE, twins in
// wasm/assembly/changeCarry.ts): the marks against the plain rule (an open face with a liquid
// cell on either side), and both twins against the references bit for bit on 1, 2 and 3 threads.
import { afterAll, describe, expect, it } from 'vitest'
import { type GridSpec, MacGrid } from '../../../../src-shared/sim/core/grid'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { APPLY_CHANGE, MARK_CHANGE } from '../../../../src-shared/sim/liquid/changeCarryKernels'
import { AIR, LIQUID, SOLID } from '../../../../src-shared/sim/liquid/viscosity'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const SPEC: GridSpec = { nx: 7, ny: 6, nz: 5, dx: 0.1, origin: [0, 0, 0] }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function carry(b: KernelBackend) {
  const { nx, ny, nz } = SPEC
  const r = rng(11)
  const vel = new MacGrid(SPEC, { kernels: b }), old = new MacGrid(SPEC, { kernels: b })
  const fr = new MacGrid(SPEC, { kernels: b }), change = new MacGrid(SPEC, { kernels: b })
  for (const g of [vel, old]) for (const a of [g.u, g.v, g.w]) for (let i = 0; i < a.length; i++) a[i] = r() * 2 - 1
  for (const a of [fr.u, fr.v, fr.w]) for (let i = 0; i < a.length; i++) a[i] = r() < 0.2 ? 0 : r()
  const kind = b.u8(nx * ny * nz)
  for (let c = 0; c < kind.length; c++) kind[c] = r() < 0.4 ? LIQUID : r() < 0.8 ? AIR : SOLID
  const marks = { mu: b.u8(vel.u.length).fill(7), mv: b.u8(vel.v.length).fill(7), mw: b.u8(vel.w.length).fill(7) }
  b.run(MARK_CHANGE, vel, old, fr, kind, change, marks, nx, ny, nz)
  const marked = { mu: Uint8Array.from(marks.mu), mv: Uint8Array.from(marks.mv), mw: Uint8Array.from(marks.mw) }
  const dchange = [Float32Array.from(change.u), Float32Array.from(change.v), Float32Array.from(change.w)]
  // The extension's marks (> 1 where it reached) and the splat's, at random.
  for (const m of [marks.mu, marks.mv, marks.mw]) for (let f = 0; f < m.length; f++) if (m[f] === 0 && r() < 0.5) m[f] = 2 + Math.floor(r() * 3)
  const known = { mu: b.u8(vel.u.length), mv: b.u8(vel.v.length), mw: b.u8(vel.w.length) }
  for (const k of [known.mu, known.mv, known.mw]) for (let f = 0; f < k.length; f++) k[f] = r() < 0.5 ? 1 : 0
  b.run(APPLY_CHANGE, vel, old, fr, change, marks, known, nx, ny, nz)
  return { kind, fr, marked, dchange, known: [known.mu, known.mv, known.mw].map((k) => Uint8Array.from(k)), vel: [vel.u, vel.v, vel.w].map((a) => Float32Array.from(a)) }
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the solve\'s change carried to the markers\' faces', () => {
  it('marks the open faces with a liquid cell on either side (u, v and w)', () => {
    const { nx, ny, nz } = SPEC
    const got = carry(TS_KERNELS)
    const liquid = (i: number, j: number, k: number) => i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz && got.kind[i + nx * (j + ny * k)] === LIQUID
    let ones = 0
    for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) {
      if (j < ny && k < nz) {
        const f = i + (nx + 1) * (j + ny * k)
        const m = got.fr.u[f] > 0 && (liquid(i - 1, j, k) || liquid(i, j, k)) ? 1 : 0
        expect(got.marked.mu[f]).toBe(m)
        ones += m
      }
      if (i < nx && k < nz) expect(got.marked.mv[i + nx * (j + (ny + 1) * k)]).toBe(got.fr.v[i + nx * (j + (ny + 1) * k)] > 0 && (liquid(i, j - 1, k) || liquid(i, j, k)) ? 1 : 0)
      if (i < nx && j < ny) expect(got.marked.mw[i + nx * (j + ny * k)]).toBe(got.fr.w[i + nx * (j + ny * k)] > 0 && (liquid(i, j, k - 1) || liquid(i, j, k)) ? 1 : 0)
    }
    expect(ones).toBeGreaterThan(20)
  })

  it('WebAssembly equals the references bit for bit on 1, 2 and 3 threads', () => {
    const ref = carry(TS_KERNELS)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = carry(b)
      for (const key of ['mu', 'mv', 'mw'] as const) expect(Array.from(got.marked[key]), `${key}, ${threads} threads`).toEqual(Array.from(ref.marked[key]))
      for (let a = 0; a < 3; a++) {
        expect(Array.from(got.dchange[a]), `change ${a}, ${threads} threads`).toEqual(Array.from(ref.dchange[a]))
        expect(Array.from(got.known[a]), `known ${a}, ${threads} threads`).toEqual(Array.from(ref.known[a]))
        expect(Array.from(got.vel[a]), `velocity ${a}, ${threads} threads`).toEqual(Array.from(ref.vel[a]))
      }
    }
  })
})
