// Two of the smoke step's passes over the grid that moved from TypeScript loops on the calling
// thread onto kernel rows: the mass fixer's (core/scalarBudgetKernels.ts, used by ScalarBudget)
// and the stability guard's (smoke/guardKernels.ts). Each against a plain loop written here,
// and on TypeScript and 1, 2 and 3 WebAssembly threads (the same bits).
import { describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { ScalarBudget } from '../../../src-shared/sim/core/scalarBudget'
import { BUDGET_APPLY, BUDGET_SUMS, BUDGET_WEIGHTS } from '../../../src-shared/sim/core/scalarBudgetKernels'
import { SMOKE_GUARD } from '../../../src-shared/sim/smoke/guardKernels'
import { everyBackendOfFile, rng, sameBits } from './everyBackend'

const backends = everyBackendOfFile()

const nx = 11, ny = 9, nz = 7, plane = nx * ny, n = plane * nz
const at = (i: number, j: number, k: number) => i + nx * (j + ny * k)

/** A lumpy field over an ambient of 293.15 (a plateau, flat ambient regions, hills), and a solid ball. */
function fields(): { q: number[]; before: number[]; solid: number[] } {
  const r = rng(4)
  const q: number[] = [], before: number[] = [], solid: number[] = []
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const d = Math.hypot(i - 5, j - 4, k - 3)
        const v = d < 1.2 ? 30 : d < 4 ? 30 * (4 - d) / 2.8 + r() : 0
        before.push(293.15 + v)
        q.push(293.15 + v * (0.9 + 0.2 * r()))
        solid.push(Math.hypot(i - 1.5, j - 1.5, k - 1.5) < 1.2 ? 1 : 0)
      }
  return { q, before, solid }
}

describe('the mass fixer on kernel rows', () => {
  const { q, before, solid } = fields()
  const amb = 293.15

  it.each(backends)('budgetSums, budgetWeights and budgetApply agree with plain loops: %s', (_name, k) => {
    const fq = k.f32(n), fb = k.f32(n), fs = k.f32(n), wt = k.f32(n), p = k.f64(2 * nz)
    fq.set(q)
    fb.set(before)
    fs.set(solid)
    k.run(BUDGET_SUMS, fq, fb, amb, fs, plane, p, nz)
    for (let kk = 0; kk < nz; kk++) {
      let e = 0, held = 0
      for (let c = kk * plane; c < (kk + 1) * plane; c++) {
        if (fs[c] >= 0.5) continue
        const b = fb[c] - amb
        e += fq[c] - amb - b
        held += Math.abs(b)
      }
      expect(Object.is(p[2 * kk], e) && Object.is(p[2 * kk + 1], held)).toBe(true)
    }
    for (const raise of [0, 1]) {
      k.run(BUDGET_WEIGHTS, fq, wt, amb, null, raise, nx, ny, nz, p)
      let some = 0
      for (let kk = 0; kk < nz; kk++) {
        let weight = 0
        for (let j = 0; j < ny; j++)
          for (let i = 0; i < nx; i++) {
            const c = at(i, j, kk), v = fq[c]
            const nb = [[i - 1, j, kk], [i + 1, j, kk], [i, j - 1, kk], [i, j + 1, kk], [i, j, kk - 1], [i, j, kk + 1]].filter(([a, b, d]) => a >= 0 && a < nx && b >= 0 && b < ny && d >= 0 && d < nz)
            const bound = nb.reduce((m, [a, b, d]) => (raise ? Math.max(m, fq[at(a, b, d)]) : Math.min(m, fq[at(a, b, d)])), v)
            const room = raise ? bound - v : v - bound
            const w = v === amb ? 0 : Math.min(room, Math.abs(v - amb))
            expect(wt[c]).toBe(Math.fround(w > 0 ? w : 0))
            if (w > 0) {
              weight += w
              some++
            }
          }
        expect(Object.is(p[kk], weight)).toBe(true)
      }
      expect(some).toBeGreaterThan(20)
    }
    const q0 = Float32Array.from(fq)
    k.run(BUDGET_APPLY, fq, wt, 0.37, plane, nz)
    for (let c = 0; c < n; c++) expect(fq[c]).toBe(wt[c] !== 0 ? Math.fround(q0[c] - 0.37 * wt[c]) : q0[c])
  })

  const restored = backends.map(([, k]) => {
    const fq = k.f32(n), fb = k.f32(n), fs = k.f32(n)
    fq.set(q)
    fb.set(before)
    fs.set(solid)
    const change = new ScalarBudget(k).restore(fq, fb, amb, fs, nx, ny, nz)
    return { fq, fb, fs, change }
  })

  it('restore puts the amount back to float32 rounding', () => {
    const { fq, fb, fs, change } = restored[0]
    let a = 0, b = 0
    for (let c = 0; c < n; c++) if (fs[c] < 0.5) {
      a += fq[c] - amb
      b += fb[c] - amb
    }
    expect(Math.abs(change)).toBeGreaterThan(1e-3)
    expect(Math.abs(a - b) / b).toBeLessThan(1e-5)
  })

  it.each(backends.slice(1).map(([name], i) => [name, i + 1] as const))('restore gives the TypeScript kernels\' bits: %s', (_name, i) => {
    expect(restored[i].change).toBe(restored[0].change)
    expect(sameBits(restored[i].fq, restored[0].fq)).toBe(true)
  })
})

describe('the smoke guard on a kernel row', () => {
  const r = rng(8)
  const nu = (nx + 1) * ny * nz, nv = nx * (ny + 1) * nz, nw = nx * ny * (nz + 1)
  const base = { u: Array.from({ length: nu }, () => r() * 4 - 2), v: Array.from({ length: nv }, () => r() * 4 - 2), w: Array.from({ length: nw }, () => r() * 4 - 2) }
  // In float32, as the faces hold them.
  const largest = Math.max(...[base.u, base.v, base.w].flatMap((a) => Array.from(Float32Array.from(a), Math.abs)))

  function scan(k: KernelBackend, edit: (f: { u: Float32Array; v: Float32Array; w: Float32Array; d: Float32Array; t: Float32Array }) => void): { speed: number; finite: boolean } {
    const f = { u: k.f32(nu), v: k.f32(nv), w: k.f32(nw), d: k.f32(n), t: k.f32(n) }
    f.u.set(base.u)
    f.v.set(base.v)
    f.w.set(base.w)
    f.t.fill(293.15)
    edit(f)
    const p = k.f64(2 * (nz + 1))
    k.run(SMOKE_GUARD, f.u, f.v, f.w, f.d, f.t, nx, ny, nz, p, nz + 1)
    let speed = 0, finite = true
    for (let kk = 0; kk <= nz; kk++) {
      speed = Number.isNaN(p[2 * kk]) || Number.isNaN(speed) ? NaN : Math.max(speed, p[2 * kk])
      if (p[2 * kk + 1] !== 0) finite = false
    }
    return { speed, finite }
  }

  it.each(backends)('the largest face speed, a NaN face, a non-finite density or temperature: %s', (_name, k) => {
    expect(scan(k, () => {})).toEqual({ speed: largest, finite: true })
    // The top w plane (face plane nz) is scanned too.
    expect(scan(k, (f) => (f.w[nw - 1] = -9)).speed).toBe(9)
    expect(scan(k, (f) => (f.v[17] = NaN)).speed).toBeNaN()
    expect(scan(k, (f) => (f.w[nw - 3] = NaN)).speed).toBeNaN()
    expect(scan(k, (f) => (f.d[n - 1] = Infinity)).finite).toBe(false)
    expect(scan(k, (f) => (f.t[5] = NaN)).finite).toBe(false)
    expect(scan(k, (f) => (f.d[40] = 1e30)).finite).toBe(true)
  })
})
