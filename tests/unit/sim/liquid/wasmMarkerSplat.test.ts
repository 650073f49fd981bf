// The liquid's markers -> grid splat (transfer.ts toGrid; splatKernels.ts splatMarkersSlab and
// its WebAssembly twin wasm/assembly/splat.ts): the reference against a plain trilinear splat
// written here, and the WebAssembly kernels against the reference bit for bit (velocities,
// temperatures, marks and the splat sums rigidCoupling.ts reads), PIC and APIC, on 1, 2 and 3
// threads.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { type GridSpec, MacGrid } from '../../../../src-shared/sim/core/grid'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { ParticleTransfer } from '../../../../src-shared/sim/liquid/transfer'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import { createWasmBackend, type WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const SPEC: GridSpec = { nx: 12, ny: 9, nz: 10, dx: 0.05, origin: [0.2, -0.1, 0.3] }

function markers(b: KernelBackend, apic: boolean, count: number, seed: number): MarkerParticles {
  const { nx, ny, nz, dx, origin } = SPEC
  const r = rng(seed)
  const p = new MarkerParticles(count, 16, apic, b)
  for (let q = 0; q < count; q++) {
    // Mostly in the lower half (so some samples stay unreached), some beyond the sides.
    const x = origin[0] + (r() * (nx + 1) - 0.5) * dx
    const y = origin[1] + (r() * 0.6 * ny - 0.3) * dx
    let z = origin[2] + (r() * (nz + 1) - 0.5) * dx
    if (q % 13 === 4) z = origin[2] + Math.round(r() * nz) * dx // exactly on a w plane
    p.add(q === 7 ? NaN : x, y, z, (r() - 0.5) * 2, (r() - 0.5) * 2, (r() - 0.5) * 2, 280 + 30 * r())
    if (apic) for (let e = 0; e < 9; e++) p.c[9 * q + e] = (r() - 0.5) * 4
  }
  return p
}

function splat(b: KernelBackend, apic: boolean, count: number, seed: number) {
  const { nx, ny, nz } = SPEC
  const p = markers(b, apic, count, seed)
  const t = new ParticleTransfer(SPEC, b)
  t.apic = apic
  const vel = new MacGrid(SPEC, { kernels: b })
  const temp = b.f32(nx * ny * nz)
  const mu = b.u8(vel.u.length), mv = b.u8(vel.v.length), mw = b.u8(vel.w.length), mt = b.u8(temp.length)
  // Stale values everywhere: the splat must overwrite them all.
  for (const a of [vel.u, vel.v, vel.w, temp]) a.fill(7)
  for (const a of [mu, mv, mw, mt]) a.fill(9)
  t.toGrid(p, vel, temp, mu, mv, mw, mt)
  t.toGrid(p, vel, temp, mu, mv, mw, mt) // twice: the sums start from zero each time
  return { p, out: [vel.u, vel.v, vel.w, temp], marks: [mu, mv, mw, mt], sums: [t.faceSplat(0), t.faceSplat(1), t.faceSplat(2)] }
}

/** A plain trilinear splat of one lattice (weighted mean; mark 0 below 1e-6). */
function plainSplat(p: MarkerParticles, axis: 0 | 1 | 2 | 3, apic: boolean): { mean: Float64Array; mark: Uint8Array } {
  const { nx, ny, nz, dx, origin } = SPEC
  const sx = axis === 0 ? nx + 1 : nx, sy = axis === 1 ? ny + 1 : ny, sz = axis === 2 ? nz + 1 : nz
  const off = [axis === 0 ? 0 : 0.5, axis === 1 ? 0 : 0.5, axis === 2 ? 0 : 0.5]
  const n = sx * sy * sz
  const sum = new Float64Array(n), wsum = new Float64Array(n)
  const vals = [p.vx, p.vy, p.vz, p.temp][axis]
  for (let q = 0; q < p.count; q++) {
    const g = [(p.px[q] - origin[0]) / dx - off[0], (p.py[q] - origin[1]) / dx - off[1], (p.pz[q] - origin[2]) / dx - off[2]]
    if (g.some((x) => !Number.isFinite(x))) continue
    const lo = g.map(Math.floor)
    for (let c = 0; c < 8; c++) {
      const d = [c & 1, (c >> 1) & 1, (c >> 2) & 1]
      const idx = d.map((e, a) => lo[a] + e)
      if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0 || idx[0] >= sx || idx[1] >= sy || idx[2] >= sz) continue
      const w = d.reduce((acc, e, a) => acc * (e ? g[a] - lo[a] : 1 - (g[a] - lo[a])), 1)
      // APIC: v_p + C_p (x_i - x_p), x_i - x_p = dx (i - g).
      let v = vals[q]
      if (apic && axis < 3) for (let a = 0; a < 3; a++) v += p.c[9 * q + 3 * axis + a] * dx * (idx[a] - g[a])
      const at = idx[0] + sx * (idx[1] + sy * idx[2])
      sum[at] += w * v
      wsum[at] += w
    }
  }
  const mean = new Float64Array(n), mark = new Uint8Array(n)
  for (let c = 0; c < n; c++) if (wsum[c] > 1e-6) (mean[c] = sum[c] / wsum[c]), (mark[c] = 1)
  return { mean, mark }
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the markers -> grid splat', () => {
  it.each([false, true])('the reference is the weighted trilinear mean (APIC %s)', (apic) => {
    const ref = splat(TS_KERNELS, apic, 700, 3)
    for (const axis of [0, 1, 2, 3] as const) {
      const plain = plainSplat(ref.p, axis, apic)
      const got = ref.out[axis]
      expect(Array.from(ref.marks[axis])).toEqual(Array.from(plain.mark))
      let worst = 0, reached = 0
      for (let c = 0; c < got.length; c++) {
        worst = Math.max(worst, Math.abs(got[c] - plain.mean[c]) / (1 + Math.abs(plain.mean[c])))
        reached += plain.mark[c]
      }
      // float32 means of float64 sums.
      expect(worst).toBeLessThan(1e-6)
      // Some samples reached, some not (the markers fill the lower part only).
      expect(reached).toBeGreaterThan(20)
      expect(reached).toBeLessThan(got.length)
    }
  })

  it.each([false, true])('WebAssembly equals the reference bit for bit (APIC %s)', (apic) => {
    const b = createWasmBackend({ strict: true, initialBytes: 1 << 20 })
    backends.push(b)
    const ref = splat(TS_KERNELS, apic, 700, 5)
    const got = splat(b, apic, 700, 5)
    expect(b.fallbacks).toBe(0)
    for (let a = 0; a < 4; a++) {
      expect(sameBits(got.out[a], ref.out[a]), `lattice ${a}`).toBe(true)
      expect(sameBits(got.marks[a], ref.marks[a]), `marks ${a}`).toBe(true)
    }
    for (let a = 0; a < 3; a++) expect(sameBits(got.sums[a], ref.sums[a]), `sums ${a}`).toBe(true)
  })

  it('1, 2 and 3 threads give identical bits', () => {
    const ref = splat(TS_KERNELS, true, 4000, 9)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = splat(b, true, 4000, 9)
      if (threads > 1) expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(1)
      for (let a = 0; a < 4; a++) expect(sameBits(got.out[a], ref.out[a]) && sameBits(got.marks[a], ref.marks[a]), `lattice ${a}, ${threads} threads`).toBe(true)
      for (let a = 0; a < 3; a++) expect(sameBits(got.sums[a], ref.sums[a]), `sums ${a}, ${threads} threads`).toBe(true)
    }
  })
})
