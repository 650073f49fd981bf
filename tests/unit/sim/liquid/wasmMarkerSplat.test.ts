// The liquid's marker splats on the kernel layer, each against a plain splat written here and
// its WebAssembly twin against its TypeScript reference bit for bit, on 1, 2 and 3 threads:
// - markers -> grid (transfer.ts toGrid; splatKernels.ts splatMarkersSlab, wasm/assembly/splat.ts):
//   velocities, temperatures, marks and the splat sums rigidCoupling.ts reads, PIC and APIC;
// - the particle level set's kernel sums (levelSet.ts; levelSetKernels.ts levelSetSplatSlab,
//   wasm/assembly/levelSet.ts), markers mirrored across closed sides, and the level set and the
//   cells' labels from them (levelSetPhiSlab);
// - the unresolved temperature (transfer.ts temperatureResidual; splatKernels.ts
//   tempResidualSlab): the markers within reach, T_p - t_old(x_p);
// - the surface mesher's particle level set (surface/particleLevelSet.ts; surfaceSplatKernels.ts,
//   wasm/assembly/surfaceSplat.ts): phi at every node, particles mirrored across the walls, and
//   its smoothing passes (surfaceSmoothKernels.ts, wasm/assembly/surfaceSmooth.ts), whole and by
//   windows of planes.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { type GridSpec, MacGrid } from '../../../../src-shared/sim/core/grid'
import { LEVEL_SET_PHI, LEVEL_SET_SPLAT } from '../../../../src-shared/sim/liquid/levelSetKernels'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { cellOf, lerpLattice } from '../../../../src-shared/sim/liquid/sample'
import { ParticleLevelSet } from '../../../../src-shared/sim/liquid/surface/particleLevelSet'
import { MARKER_PLANES, MarkerPlaneCodes, markerPlanesSlab, planeCodeShift } from '../../../../src-shared/sim/liquid/splatKernels'
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

/** Markers over SPEC; `wild` adds non-finite velocities and affine terms on markers that sit
 *  exactly on a w plane, where they must not reach the corners they give no weight. */
function markers(b: KernelBackend, apic: boolean, count: number, seed: number, wild = false): MarkerParticles {
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
    if (wild && q % 13 === 4 && q % 3 === 2) p.vz[q] = q % 2 ? Infinity : -Infinity
    if (wild && apic && q % 13 === 4 && q % 3 === 1) p.c[9 * q + 6] = NaN
  }
  return p
}

/** Cumulative work per cell plane (length nz + 2) heavy in the lower planes, as a liquid's. */
function skewedBalance(): Float64Array {
  const w = new Float64Array(SPEC.nz + 2)
  for (let k = 0; k <= SPEC.nz; k++) w[k + 1] = w[k] + (k < 3 ? 100 : 1)
  return w
}

/** Plane codes at a given coarseness (MarkerPlaneCodes picks the finest its grid allows). */
class ForcedShift extends MarkerPlaneCodes {
  constructor(
    private readonly b: KernelBackend,
    private readonly forced: number,
  ) {
    super(b)
  }

  override update(p: Pick<MarkerParticles, 'pz' | 'count' | 'capacity'>, _nz: number, dx: number, oz: number): Uint8Array {
    const codes = this.b.u8(p.capacity)
    this.shift = this.forced
    this.b.run(MARKER_PLANES, p.pz, codes, dx, oz, this.forced, p.count)
    return codes
  }
}

function splat(b: KernelBackend, apic: boolean, count: number, seed: number, balance: Float64Array | null = null, wild = false, shift: number | null = null) {
  const { nx, ny, nz } = SPEC
  const p = markers(b, apic, count, seed, wild)
  const t = new ParticleTransfer(SPEC, b)
  t.apic = apic
  t.balance = balance
  // A coarser plane code than this grid needs (grids of 253 planes and more use one).
  if (shift !== null) (t as unknown as { planeCodes: MarkerPlaneCodes }).planeCodes = new ForcedShift(b, shift)
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
    const ref = splat(TS_KERNELS, apic, 700, 5, null, true)
    const got = splat(b, apic, 700, 5, null, true)
    expect(b.fallbacks).toBe(0)
    for (let a = 0; a < 4; a++) {
      expect(sameBits(got.out[a], ref.out[a]), `lattice ${a}`).toBe(true)
      expect(sameBits(got.marks[a], ref.marks[a]), `marks ${a}`).toBe(true)
    }
    for (let a = 0; a < 3; a++) expect(sameBits(got.sums[a], ref.sums[a]), `sums ${a}`).toBe(true)
  })

  it('an infinite velocity on a lattice plane reaches only the corners it weighs (TypeScript and WebAssembly)', () => {
    const { nx, ny, dx, origin } = SPEC
    for (const b of [TS_KERNELS, createWasmBackend({ strict: true, initialBytes: 1 << 20 })]) {
      if (b !== TS_KERNELS) backends.push(b)
      const p = new MarkerParticles(2, 16, true, b)
      // Marker 0 sits exactly on w plane 4 (its upper corners weigh 0) with vz = +Infinity;
      // marker 1, finite, reaches w plane 5 above it with weight.
      const x = origin[0] + 3.3 * dx, y = origin[1] + 2.6 * dx
      p.add(x, y, origin[2] + 4 * dx, 0.1, 0.2, Infinity, 290)
      p.add(x, y, origin[2] + 4.5 * dx, 0.1, 0.2, 0.7, 290)
      const t = new ParticleTransfer(SPEC, b)
      t.apic = true
      const vel = new MacGrid(SPEC, { kernels: b })
      const temp = b.f32(nx * ny * SPEC.nz)
      const mu = b.u8(vel.u.length), mv = b.u8(vel.v.length), mw = b.u8(vel.w.length), mt = b.u8(temp.length)
      t.toGrid(p, vel, temp, mu, mv, mw, mt)
      // The w sample at (i, j) = (2, 2) (x - 1/2, y - 1/2 lattice) on plane 5: only marker 1's value.
      const above = 2 + nx * (2 + ny * 5), on = 2 + nx * (2 + ny * 4)
      expect(mw[above]).toBe(1)
      expect(vel.w[above]).toBeCloseTo(0.7, 6)
      expect(vel.w[on]).toBe(Infinity)
    }
  })

  it('the markers\' plane codes (markerPlanesSlab) pass over only markers that reach none of a piece\'s planes, at any coarseness', () => {
    const { nz, dx, origin } = SPEC
    // The codes: floor(Z - 1/2) + 2 >> shift in range, 255 for NaN and far off.
    const pz = Float32Array.of(origin[2] + 0.7 * dx, origin[2] - 0.6 * dx, origin[2] + (nz + 0.9) * dx, origin[2] + 7.2 * dx, NaN, 1e30, -1e30, origin[2] - 3 * dx)
    const codes = new Uint8Array(pz.length)
    markerPlanesSlab(pz, codes, dx, origin[2], 0, 0, pz.length)
    expect(Array.from(codes)).toEqual([2, 0, nz + 2, 8, 255, 255, 255, 255])
    markerPlanesSlab(pz, codes, dx, origin[2], 2, 0, pz.length)
    expect(Array.from(codes)).toEqual([0, 0, (nz + 2) >> 2, 2, 255, 255, 255, 255])
    // The twin (four markers a step, then one at a time) writes the reference's codes.
    const r = rng(17)
    const many = Float32Array.from({ length: 1003 }, (_, q) => (q < pz.length ? pz[q] : origin[2] + (r() * (nz + 8) - 4) * dx))
    for (const threads of [1, 2]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const at = b.f32(many.length)
      at.set(many)
      for (const shift of [0, 2]) {
        const want = new Uint8Array(many.length), got = b.u8(many.length)
        markerPlanesSlab(many, want, dx, origin[2], shift, 0, many.length)
        b.run(MARKER_PLANES, at, got, dx, origin[2], shift, many.length)
        expect(Array.from(got), `${threads} threads, shift ${shift}`).toEqual(Array.from(want))
      }
    }
    expect(planeCodeShift(252)).toBe(0)
    expect(planeCodeShift(253)).toBe(1)
    expect(planeCodeShift(1000)).toBe(2)
    // The splat with codes of every coarseness, 4001 markers (a ragged last group), some far
    // off and non-finite: the reference's bits on 1, 2 and 3 threads, by equal planes and by a
    // balance.
    const ref = splat(TS_KERNELS, true, 4001, 5, null, true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      for (const shift of [0, 1, 3, 7]) {
        for (const balance of [null, skewedBalance()]) {
          const got = splat(b, true, 4001, 5, balance, true, shift)
          for (let a = 0; a < 4; a++) expect(sameBits(got.out[a], ref.out[a]) && sameBits(got.marks[a], ref.marks[a]), `lattice ${a}, ${threads} threads, shift ${shift}, balance ${balance !== null}`).toBe(true)
          for (let a = 0; a < 3; a++) expect(sameBits(got.sums[a], ref.sums[a]), `sums ${a}, ${threads} threads, shift ${shift}`).toBe(true)
        }
      }
    }
  })

  it('1, 2 and 3 threads give identical bits', () => {
    const ref = splat(TS_KERNELS, true, 4000, 9, null, true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      // Split by equal planes, and by a balance that gives the lower planes to one thread.
      for (const balance of [null, skewedBalance()]) {
        const got = splat(b, true, 4000, 9, balance, true)
        for (let a = 0; a < 4; a++) expect(sameBits(got.out[a], ref.out[a]) && sameBits(got.marks[a], ref.marks[a]), `lattice ${a}, ${threads} threads, balance ${balance !== null}`).toBe(true)
      }
      const got = splat(b, true, 4000, 9, null, true)
      if (threads > 1) expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(1)
      for (let a = 0; a < 4; a++) expect(sameBits(got.out[a], ref.out[a]) && sameBits(got.marks[a], ref.marks[a]), `lattice ${a}, ${threads} threads`).toBe(true)
      for (let a = 0; a < 3; a++) expect(sameBits(got.sums[a], ref.sums[a]), `sums ${a}, ${threads} threads`).toBe(true)
    }
  })
})

/**
 * The level set's kernel sums of markers p with closed sides `closed`, run on backend b; with
 * plane codes (MARKER_PLANES) at `shift` unless it is null (the twin then passes over groups
 * of markers by their codes; the sums must not change).
 */
function levelSetSums(b: KernelBackend, p: MarkerParticles, closed: Uint8Array, shift: number | null = null): Float64Array {
  const { nx, ny, nz, dx, origin } = SPEC
  const sums = b.f64(4 * nx * ny * nz).fill(3) // stale: the splat starts from zero
  const codes = shift === null ? null : b.u8(p.count)
  if (codes) b.run(MARKER_PLANES, p.pz, codes, dx, origin[2], shift, p.count)
  b.run(LEVEL_SET_SPLAT, p, sums, p.count, closed, nx, ny, nz, dx, origin[0], origin[1], origin[2], dx, codes, shift ?? 0, skewedBalance())
  return Float64Array.from(sums)
}

/** The sums on b with no codes and with codes of several coarsenesses, each against ref. */
function expectSumsWithCodes(b: KernelBackend, make: (b: KernelBackend) => MarkerParticles, closed: Uint8Array, ref: Float64Array, label: string): void {
  for (const shift of [null, 0, 1, 3]) expect(sameBits(levelSetSums(b, make(b), closed, shift), ref), `${label}, codes shift ${shift}`).toBe(true)
}

/** Markers for the level set: many near the sides (mirrored), some outside, one NaN. */
function levelSetMarkers(b: KernelBackend, count: number, seed: number): MarkerParticles {
  const { nx, ny, nz, dx, origin } = SPEC
  const r = rng(seed)
  const p = new MarkerParticles(count, 16, false, b)
  const near = (n: number, lo: number) => (r() < 0.5 ? lo + r() * 1.2 * dx : lo + (n - r() * 1.2) * dx)
  for (let q = 0; q < count; q++) {
    let x = origin[0] + r() * nx * dx, y = origin[1] + r() * ny * dx, z = origin[2] + r() * nz * dx
    if (q % 3 === 0) x = near(nx, origin[0])
    if (q % 4 === 0) y = near(ny, origin[1])
    if (q % 5 === 0) z = near(nz, origin[2])
    if (q === 11) z = origin[2] - 3 * dx // below the floor: its mirror lands three cells up
    if (q === 12) y = NaN
    p.add(x, y, z, 0, 0, 0, 300)
  }
  return p
}

describe('the particle level set\'s kernel splat', () => {
  const closed = new Uint8Array([1, 0, 1, 1, 1, 0])

  it('the reference is the sum over markers and their mirrors of (1 - s^2)^3', () => {
    const { nx, ny, nz, dx, origin } = SPEC
    const p = levelSetMarkers(TS_KERNELS, 400, 21)
    const got = levelSetSums(TS_KERNELS, p, closed)
    const want = new Float64Array(got.length)
    for (let q = 0; q < p.count; q++) {
      const pos = [p.px[q], p.py[q], p.pz[q]]
      if (pos.some((v) => !Number.isFinite(v))) continue
      // Every combination of mirrors across the closed sides within R = dx.
      const options = pos.map((v, a) => {
        const lo = origin[a], hi = origin[a] + [nx, ny, nz][a] * dx
        if (closed[2 * a] && v - lo < dx) return [v, 2 * lo - v]
        if (closed[2 * a + 1] && hi - v < dx) return [v, 2 * hi - v]
        return [v]
      })
      for (const X of options[0])
        for (const Y of options[1])
          for (const Z of options[2])
            for (let c = 0; c < nx * ny * nz; c++) {
              const i = c % nx, j = Math.floor(c / nx) % ny, k = Math.floor(c / (nx * ny))
              const s2 = ((origin[0] + (i + 0.5) * dx - X) ** 2 + (origin[1] + (j + 0.5) * dx - Y) ** 2 + (origin[2] + (k + 0.5) * dx - Z) ** 2) / (dx * dx)
              if (s2 >= 1) continue
              const w = (1 - s2) ** 3
              want[4 * c] += w
              want[4 * c + 1] += w * X
              want[4 * c + 2] += w * Y
              want[4 * c + 3] += w * Z
            }
    }
    let worst = 0
    for (let e = 0; e < want.length; e++) worst = Math.max(worst, Math.abs(got[e] - want[e]))
    expect(worst).toBeLessThan(1e-9)
    expect(want.filter((v, e) => e % 4 === 0 && v > 0).length).toBeGreaterThan(100)
  })

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const pTs = levelSetMarkers(TS_KERNELS, 3000, 22)
    const ref = levelSetSums(TS_KERNELS, pTs, closed)
    const w = createWasmBackend({ strict: true, initialBytes: 1 << 20 })
    backends.push(w)
    const inline = levelSetSums(w, levelSetMarkers(w, 3000, 22), closed)
    expect(w.fallbacks).toBe(0)
    expect(sameBits(inline, ref)).toBe(true)
    // With plane codes, also on a grid closed at the top (mirrors across both ends in z).
    const both = new Uint8Array([1, 0, 1, 1, 1, 1])
    const refBoth = levelSetSums(TS_KERNELS, levelSetMarkers(TS_KERNELS, 3000, 22), both)
    expectSumsWithCodes(w, (b) => levelSetMarkers(b, 3000, 22), closed, ref, '1 thread')
    expectSumsWithCodes(w, (b) => levelSetMarkers(b, 3000, 22), both, refBoth, '1 thread, closed top')
    for (const threads of [2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      expect(sameBits(levelSetSums(b, levelSetMarkers(b, 3000, 22), closed), ref), `${threads} threads`).toBe(true)
      expectSumsWithCodes(b, (m) => levelSetMarkers(m, 3000, 22), closed, ref, `${threads} threads`)
      expectSumsWithCodes(b, (m) => levelSetMarkers(m, 3000, 22), both, refBoth, `${threads} threads, closed top`)
      expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(1)
    }
  })
})

describe("the particle level set's kernel splat, markers two at a time", () => {
  // Markers with no mirror go through the WebAssembly splat in pairs, their arithmetic in the
  // two lanes of f64x2 (wasm/assembly/levelSet.ts splatPair): a block of them in the middle of
  // the grid, in cell order as the liquid seeds them, with a NaN marker, one beyond the grid,
  // one on a cell-centre plane and one next to an open side (no mirror, but clamped: not the
  // 2 x 2 x 2 path) among them, and an odd count so the last one goes alone.
  function interior(b: KernelBackend): MarkerParticles {
    const { nx, ny, nz, dx, origin } = SPEC
    const r = rng(31)
    const p = new MarkerParticles(2001, 16, false, b)
    for (let q = 0; q < 2001; q++) {
      const c = q >> 3
      const i = 2 + (c % (nx - 4)), j = 2 + (Math.floor(c / (nx - 4)) % (ny - 4)), k = 2 + (Math.floor(c / ((nx - 4) * (ny - 4))) % (nz - 4))
      let x = origin[0] + (i + r()) * dx
      let y = origin[1] + (j + r()) * dx
      let z = origin[2] + (k + r()) * dx
      if (q === 500) x = NaN
      if (q === 801) z = origin[2] + (nz + 4) * dx
      if (q === 1200) y = origin[1] + (j + 0.5) * dx
      if (q === 1401) x = origin[0] + (nx - 0.2) * dx
      p.add(x, y, z, 0, 0, 0, 300)
    }
    return p
  }

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const closed = new Uint8Array([1, 0, 1, 1, 1, 1])
    const ref = levelSetSums(TS_KERNELS, interior(TS_KERNELS), closed)
    expect(ref.filter((v, e) => e % 4 === 0 && v > 0).length).toBeGreaterThan(300)
    const w = createWasmBackend({ strict: true, initialBytes: 1 << 20 })
    backends.push(w)
    expect(sameBits(levelSetSums(w, interior(w), closed), ref)).toBe(true)
    expectSumsWithCodes(w, interior, closed, ref, '1 thread')
    for (const threads of [2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      expect(sameBits(levelSetSums(b, interior(b), closed), ref), `${threads} threads`).toBe(true)
      expectSumsWithCodes(b, interior, closed, ref, `${threads} threads`)
    }
  })
})

describe('the particle level set from its sums (levelSetKernels.ts levelSetPhiSlab)', () => {
  const { nx, ny, nz, dx, origin } = SPEC
  const n = nx * ny * nz
  const R = dx, r = 0.5 * R, rm = 0.246 * R, band = 3 * dx, eps = 1e-3 * dx

  /** phi, distance and labels on backend b from the splat of the same markers, counts and starting labels. */
  function labelled(b: KernelBackend): { phi: Float32Array; distance: Float32Array; kind: Uint8Array } {
    const sums = b.f64(4 * n)
    sums.set(levelSetSums(TS_KERNELS, levelSetMarkers(TS_KERNELS, 500, 23), Uint8Array.from([1, 1, 0, 1, 1, 0])))
    const rand = rng(29)
    const count = b.i32(n), kind = b.u8(n), phi = b.f32(n), distance = b.f32(n)
    for (let c = 0; c < n; c++) {
      count[c] = Math.floor(rand() * 4)
      kind[c] = rand() < 0.1 ? 2 : rand() < 0.5 ? 1 : 0
    }
    b.run(LEVEL_SET_PHI, sums, count, kind, phi, distance, nx, ny, dx, origin[0], origin[1], origin[2], r, rm, band, eps, 2, nz)
    return { phi: Float32Array.from(phi), distance: Float32Array.from(distance), kind: Uint8Array.from(kind) }
  }

  it('the reference: |x - xbar| - r capped at the band, liquid where phi < 0 or two markers, solids kept', () => {
    const got = labelled(TS_KERNELS)
    const sums = levelSetSums(TS_KERNELS, levelSetMarkers(TS_KERNELS, 500, 23), Uint8Array.from([1, 1, 0, 1, 1, 0]))
    const rand = rng(29)
    let liquid = 0, reached = 0
    for (let c = 0; c < n; c++) {
      const count = Math.floor(rand() * 4), k0 = rand() < 0.1 ? 2 : rand() < 0.5 ? 1 : 0
      const i = c % nx, j = Math.floor(c / nx) % ny, k = Math.floor(c / (nx * ny)), w = sums[4 * c]
      let d = Infinity
      if (w > 0) {
        d = Math.hypot(origin[0] + (i + 0.5) * dx - sums[4 * c + 1] / w, origin[1] + (j + 0.5) * dx - sums[4 * c + 2] / w, origin[2] + (k + 0.5) * dx - sums[4 * c + 3] / w)
        reached++
      }
      const v = Math.min(d - r, band)
      const kind = k0 === 2 ? 2 : v < 0 || count >= 2 ? 1 : 0
      expect(got.kind[c]).toBe(kind)
      expect(got.distance[c]).toBeCloseTo(Math.min(d - rm, band), 6)
      const want = kind === 1 ? (v < 0 ? v : -eps) : Math.max(v, eps)
      expect(got.phi[c]).toBeCloseTo(want, 6)
      if (kind === 1) liquid++
    }
    expect(liquid).toBeGreaterThan(50)
    expect(reached).toBeGreaterThan(100)
  })

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const ref = labelled(TS_KERNELS)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = labelled(b)
      expect(sameBits(got.phi, ref.phi) && sameBits(got.distance, ref.distance), `${threads} threads`).toBe(true)
      expect(Array.from(got.kind)).toEqual(Array.from(ref.kind))
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
    }
  })
})

describe('the unresolved temperature splat', () => {
  /** tempResid after temperatureResidual on backend b, and the markers and fields it read. */
  function residual(b: KernelBackend, seed: number) {
    const { nx, ny, nz } = SPEC
    const n = nx * ny * nz
    const r = rng(seed)
    const p = markers(b, false, 1500, seed)
    const tempOld = b.f32(n), reach = b.u8(n)
    for (let c = 0; c < n; c++) (tempOld[c] = 280 + 30 * r()), (reach[c] = r() < 0.7 ? 1 : 0)
    const t = new ParticleTransfer(SPEC, b)
    t.temperatureResidual(p, tempOld, reach, 1e-4, 0.01)
    expect(t.tempRelax).toBeGreaterThan(0)
    return { resid: Float32Array.from(t.tempResid), p, tempOld, reach }
  }

  it('the reference is the weighted mean of T_p - t_old(x_p) over the markers within reach', () => {
    const { nx, ny, nz, dx, origin } = SPEC
    const { resid, p, tempOld, reach } = residual(TS_KERNELS, 31)
    const n = nx * ny * nz
    const sum = new Float64Array(n), wsum = new Float64Array(n)
    for (let q = 0; q < p.count; q++) {
      const g = [(p.px[q] - origin[0]) / dx, (p.py[q] - origin[1]) / dx, (p.pz[q] - origin[2]) / dx]
      if (g.some((x) => !Number.isFinite(x)) || reach[cellOf(g[0], g[1], g[2], nx, ny, nz)] === 0) continue
      const value = p.temp[q] - lerpLattice(tempOld, nx, ny, nz, g[0] - 0.5, g[1] - 0.5, g[2] - 0.5)
      const h = g.map((x) => x - 0.5)
      const lo = h.map(Math.floor)
      for (let c = 0; c < 8; c++) {
        const d = [c & 1, (c >> 1) & 1, (c >> 2) & 1]
        const idx = d.map((e, a) => lo[a] + e)
        if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0 || idx[0] >= nx || idx[1] >= ny || idx[2] >= nz) continue
        const w = d.reduce((acc, e, a) => acc * (e ? h[a] - lo[a] : 1 - (h[a] - lo[a])), 1)
        sum[idx[0] + nx * (idx[1] + ny * idx[2])] += w * value
        wsum[idx[0] + nx * (idx[1] + ny * idx[2])] += w
      }
    }
    let worst = 0, reached = 0
    for (let c = 0; c < n; c++) {
      const want = wsum[c] > 1e-6 ? sum[c] / wsum[c] : 0
      worst = Math.max(worst, Math.abs(resid[c] - want))
      if (wsum[c] > 1e-6) reached++
    }
    expect(worst).toBeLessThan(1e-4) // float32 of values ~10 K
    expect(reached).toBeGreaterThan(50)
  })

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const ref = residual(TS_KERNELS, 32).resid
    expect(ref.some((v) => v !== 0)).toBe(true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      expect(sameBits(residual(b, 32).resid, ref), `${threads} threads`).toBe(true)
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
    }
  })
})

describe("the surface mesher's particle level set", () => {
  /** 2000 particles, many within R of a wall, one with a NaN coordinate. */
  function surfaceParticles(seed: number): Float32Array {
    const { nx, ny, nz, dx, origin } = SPEC
    const r = rng(seed)
    const n = 2000
    const positions = new Float32Array(3 * n)
    for (let q = 0; q < n; q++) {
      positions[3 * q] = origin[0] + (q % 3 === 0 ? r() * 0.5 : r() * nx) * dx
      positions[3 * q + 1] = origin[1] + r() * 0.5 * ny * dx
      positions[3 * q + 2] = origin[2] + (q % 4 === 0 ? nz - r() * 0.5 : r() * nz) * dx
    }
    positions[5] = NaN
    return positions
  }

  /**
   * phi at every node computed on backend b, `smoothing` passes, a window of `window` node
   * planes at a time as the mesher sweeps them (each window's exact planes kept).
   */
  function surfacePhi(b: KernelBackend, seed: number, smoothing = 0, window = Infinity): Float32Array {
    const { nx, ny, nz, dx } = SPEC
    const positions = surfaceParticles(seed)
    const ls = new ParticleLevelSet(b)
    ls.prepare({ positions, count: positions.length / 3, particleRadius: 0.25 * dx, kernelScale: 3, origin: SPEC.origin, dx, cells: [nx, ny, nz], refinement: 2, smoothing }, window)
    const { nx: a, ny: c, nz: d } = ls.grid
    const plane = a * c
    const out = new Float32Array(plane * d)
    for (let k0 = 0; k0 < d; k0 += Math.min(window, d)) {
      const k1 = Math.min(d, k0 + window)
      ls.computePlanes(k0, k1)
      out.set(ls.phi.subarray((k0 - ls.base) * plane, (k1 - ls.base) * plane), k0 * plane)
    }
    return out
  }

  /** The smoothing written out here: Jacobi passes over the whole grid, inside nodes only. */
  function smoothedHere(phi: Float32Array, passes: number): Float32Array {
    const a = 2 * SPEC.nx + 3, c = 2 * SPEC.ny + 3, d = 2 * SPEC.nz + 3
    let src = Float32Array.from(phi)
    for (let pass = 0; pass < passes; pass++) {
      const dst = Float32Array.from(src)
      for (let k = 1; k < d - 1; k++) for (let j = 1; j < c - 1; j++) for (let i = 1; i < a - 1; i++) {
        const n = i + a * (j + c * k), v = src[n]
        if (v >= 0) continue
        const mean = (src[n - 1] + src[n + 1] + src[n - a] + src[n + a] + src[n - a * c] + src[n + a * c]) / 6
        dst[n] = v + 0.5 * (mean - v)
      }
      src = dst
    }
    return src
  }

  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    const ref = surfacePhi(TS_KERNELS, 41)
    // Inside (phi < 0), near and far nodes all occur.
    expect(ref.some((v) => v < 0) && ref.some((v) => v > 0 && v < Math.max(...ref))).toBe(true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      expect(sameBits(surfacePhi(b, 41), ref), `${threads} threads`).toBe(true)
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
    }
  })

  it('smoothing (surfaceSmoothKernels.ts): the reference equals passes written here, whole or by windows, and WebAssembly equals it bit for bit on 1, 2 and 3 threads', () => {
    const raw = surfacePhi(TS_KERNELS, 43)
    const here = smoothedHere(raw, 2)
    const ref = surfacePhi(TS_KERNELS, 43, 2)
    // Two passes move inside nodes (and only those).
    let moved = 0
    for (let n = 0; n < raw.length; n++) if (raw[n] !== ref[n]) moved++, expect(raw[n]).toBeLessThan(0)
    expect(moved).toBeGreaterThan(50)
    expect(sameBits(ref, here)).toBe(true)
    expect(sameBits(surfacePhi(TS_KERNELS, 43, 2, 6), here), 'windows of 6 planes').toBe(true)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      expect(sameBits(surfacePhi(b, 43, 2), here), `${threads} threads`).toBe(true)
      expect(sameBits(surfacePhi(b, 43, 2, 6), here), `${threads} threads, windows of 6 planes`).toBe(true)
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
    }
  })
})
