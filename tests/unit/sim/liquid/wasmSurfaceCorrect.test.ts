// The tracked surface's correction by the markers (surfaceTracker.ts correct;
// surfaceCorrectKernel.ts's three rows and their twins in wasm/assembly/surfaceCorrect.ts):
// the twins against the references bit for bit on 1, 2 and 3 threads (the markers' pass
// ordered: later markers read what earlier ones wrote; the unreached and solid cells' passes
// split by planes), with escaped markers, markers outside the grid, NaN and infinite
// positions, unreached cells and solid cells; and the references' rule on one escaped marker.
// The markers' pass retests only the markers that had escaped before it (the candidates, found
// by blocks on the threads): checked against the one ordered loop over every marker it
// replaced, on 40,000 markers in three blocks, the middle one with no candidate (skipped).
import { afterAll, describe, expect, it } from 'vitest'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { MARKER_RADIUS, SurfaceTracker } from '../../../../src-shared/sim/liquid/surfaceTracker'
import { liftUnreachedSlab, solidMeanSlab } from '../../../../src-shared/sim/liquid/surfaceCorrectKernel'
import { lerpLattice } from '../../../../src-shared/sim/liquid/sample'
import { SPEED_BLOCK } from '../../../../src-shared/sim/liquid/speedKernel'
import { AIR, LIQUID, SOLID } from '../../../../src-shared/sim/liquid/viscosity'
import { everyBackend } from '../everyBackend'

const SPEC: GridSpec = { nx: 10, ny: 8, nz: 9, dx: 0.1, origin: [0.1, -0.2, 0.3] }
const BAND = 0.3

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function correct(b: KernelBackend, seed: number) {
  const { nx, ny, nz, dx, origin } = SPEC
  const n = nx * ny * nz
  const r = rng(seed)
  const t = new SurfaceTracker(SPEC, BAND, b)
  // A pool below y = 0.2 m as the tracked phi, with noise: markers above it escape.
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const y = origin[1] + (j + 0.5) * dx
    t.phi[i + nx * (j + ny * k)] = Math.max(-BAND, Math.min(BAND, y - 0.2 + (r() - 0.5) * 0.05))
  }
  t.ready = true
  const sums = b.f64(4 * n)
  const kind = b.u8(n)
  for (let c = 0; c < n; c++) {
    sums[4 * c] = r() < 0.3 ? 0 : r()
    kind[c] = c % 11 === 0 ? SOLID : r() < 0.5 ? LIQUID : AIR
  }
  const p = new MarkerParticles(500, 16, false, b)
  for (let q = 0; q < 500; q++) {
    const x = origin[0] + (r() * (nx + 1) - 0.5) * dx
    const y = origin[1] + (r() * (ny + 1) - 0.5) * dx
    const z = origin[2] + (r() * (nz + 1) - 0.5) * dx
    p.add(q === 5 ? NaN : q === 6 ? Infinity : x, y, q === 8 ? -Infinity : z, 0, 0, 0, 290)
  }
  t.correct(p, SPEC, sums, kind)
  return Float32Array.from(t.phi)
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the tracked surface\'s correction by the markers', () => {
  it('WebAssembly equals the reference bit for bit on 1, 2 and 3 threads', () => {
    for (const [threads, b] of everyBackend(backends).slice(1)) {
      for (const seed of [1, 2, 3]) {
        const ref = correct(TS_KERNELS, seed)
        const got = correct(b, seed)
        let same = true
        for (let c = 0; c < ref.length; c++) if (!Object.is(ref[c], got[c])) same = false
        expect(same, `seed ${seed}, ${threads}`).toBe(true)
      }
    }
  })

  it('retesting only the candidates gives the bits of the ordered loop over every marker (40,000 markers, three blocks, the middle one without a candidate), on every backend', () => {
    const { nx, ny, nz, dx, origin } = SPEC
    const n = nx * ny * nz
    const rp = MARKER_RADIUS * dx
    const count = 2 * SPEED_BLOCK + 7000
    /** The state: phi within the band (so no clamp raises it), sums, kind, markers. */
    function state(b: KernelBackend) {
      const r = rng(11)
      const t = new SurfaceTracker(SPEC, BAND, b)
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
        const y = origin[1] + (j + 0.5) * dx
        t.phi[i + nx * (j + ny * k)] = Math.max(-BAND, Math.min(BAND, y - 0.2 + (r() - 0.5) * 0.05))
      }
      t.ready = true
      const sums = b.f64(4 * n), kind = b.u8(n)
      for (let c = 0; c < n; c++) {
        // The two lowest rows (the middle block's markers read only them) all reached, so not lifted.
        const low = Math.floor(c / nx) % ny < 2
        sums[4 * c] = !low && r() < 0.3 ? 0 : 0.5 + r()
        kind[c] = c % 11 === 0 ? SOLID : r() < 0.5 ? LIQUID : AIR
      }
      const p = new MarkerParticles(count, 16, false, b)
      for (let q = 0; q < count; q++) {
        // The middle block deep in the pool (y < 0: phi below -rp there), the others anywhere.
        const deep = q >= SPEED_BLOCK && q < 2 * SPEED_BLOCK
        const x = origin[0] + (r() * (nx + 1) - 0.5) * dx
        const y = deep ? origin[1] + (0.5 + r()) * dx : origin[1] + (r() * (ny + 1) - 0.5) * dx
        const z = origin[2] + (r() * (nz + 1) - 0.5) * dx
        p.add(x, y, z, 0, 0, 0, 290)
      }
      return { t, sums, kind, p }
    }
    // The rule as one ordered loop over every marker (the pass before the candidates).
    const ref = state(TS_KERNELS)
    const phi = ref.t.phi
    liftUnreachedSlab(phi, ref.sums, ref.kind, dx - rp, nx * ny, 0, nz)
    let escaped = 0
    const inv = 1 / dx, reach = rp + dx
    for (let q = 0; q < count; q++) {
      const x = ref.p.px[q], y = ref.p.py[q], z = ref.p.pz[q]
      const gx = (x - origin[0]) * inv - 0.5, gy = (y - origin[1]) * inv - 0.5, gz = (z - origin[2]) * inv - 0.5
      if (!(lerpLattice(phi, nx, ny, nz, gx, gy, gz) > rp)) continue
      if (q >= SPEED_BLOCK && q < 2 * SPEED_BLOCK) throw new Error('a marker of the middle block escaped')
      escaped++
      const i0 = Math.max(0, Math.ceil(gx - reach * inv)), i1 = Math.min(nx - 1, Math.floor(gx + reach * inv))
      const j0 = Math.max(0, Math.ceil(gy - reach * inv)), j1 = Math.min(ny - 1, Math.floor(gy + reach * inv))
      const k0 = Math.max(0, Math.ceil(gz - reach * inv)), k1 = Math.min(nz - 1, Math.floor(gz + reach * inv))
      for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
        const c = i + nx * (j + ny * k)
        const dxx = origin[0] + (i + 0.5) * dx - x, dy = origin[1] + (j + 0.5) * dx - y, dz = origin[2] + (k + 0.5) * dx - z
        const s = Math.sqrt(dxx * dxx + dy * dy + dz * dz) - rp
        if (s < phi[c]) phi[c] = s > -BAND ? s : -BAND
      }
    }
    solidMeanSlab(phi, ref.kind, nx, ny, nz, 0, nz)
    expect(escaped).toBeGreaterThan(1000)
    for (const [label, b] of everyBackend(backends)) {
      const got = state(b)
      got.t.correct(got.p, SPEC, got.sums, got.kind)
      let differ = 0
      for (let c = 0; c < n; c++) if (!Object.is(got.t.phi[c], phi[c])) differ++
      expect(differ, label).toBe(0)
    }
  })

  it('an escaped marker lowers the centres within rp + dx to its sphere; an unreached cell rises to dx - rp', () => {
    const { nx, ny, dx, origin } = SPEC
    const n = nx * ny * SPEC.nz
    const t = new SurfaceTracker(SPEC, BAND, TS_KERNELS)
    t.phi.fill(BAND)
    t.ready = true
    const sums = new Float64Array(4 * n).fill(1)
    const kind = new Uint8Array(n).fill(AIR)
    // Cell (0, 0, 0) is unreached and deep inside: it rises to dx - rp.
    sums[0] = 0
    t.phi[0] = -0.2
    const p = new MarkerParticles(1, 16, false, TS_KERNELS)
    const x = origin[0] + 5.5 * dx, y = origin[1] + 4.5 * dx, z = origin[2] + 4.5 * dx
    p.add(x, y, z, 0, 0, 0, 290)
    t.correct(p, SPEC, sums, kind)
    const rp = MARKER_RADIUS * dx
    expect(t.phi[0]).toBeCloseTo(dx - rp, 6)
    // The marker's own cell centre: -rp; a neighbour one cell along x: dx - rp; two cells away: untouched.
    const at = (i: number, j: number, k: number) => t.phi[i + nx * (j + ny * k)]
    expect(at(5, 4, 4)).toBeCloseTo(-rp, 6)
    expect(at(6, 4, 4)).toBeCloseTo(dx - rp, 6)
    expect(at(5, 4, 7)).toBe(Math.fround(BAND))
  })
})
