// Flows on Catmull-Clark surfaces (Stam 2003), checked by amount:
//   - the projection is one symmetric system over all patches, PCG converges on genus 0, 1 and
//     2 cages, and leaves the flow divergence free to the solver's tolerance;
//   - with the metric a rigid spin of a sphere-like surface stays divergence free after the
//     projection; a solver that treats every patch as a flat unit square (Figure 3) leaves a
//     divergence many times larger, measured with the true metric;
//   - density is conserved by advection plus projection over 200 steps (no sources);
//   - no seams: a blob carried across patch edges on the flat top of a slab matches the exact
//     translated blob, a blob carried past the inner corner of a notched flat sheet (a rim
//     vertex with three faces) too, and a blob carried over a valence-3 extraordinary vertex
//     and back ends as close to its start as the same round trip on flat patches.
import { describe, expect, it } from 'vitest'
import { doubleTorusCage, sphereLikeCage, torusCage, voxelCage } from '../../../src-shared/geometry/voxelCages'
import { SurfaceTransport } from '../../../src-shared/sim/surface/surfaceTransport'
import type { SurfaceFluid } from '../../../src-shared/sim/surface/surfaceFluid'
import { centroid, fluidOn, setBlob, setWorldWind, trueDivergence } from './scenes'

function slab(n: number) {
  const cells: [number, number, number][] = []
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) cells.push([i, 0, k])
  return voxelCage(cells)
}

/** Relative L2 (area weighted) of a - b over b, on the real cells. */
function relL2(fl: SurfaceFluid, a: ArrayLike<number>, b: (k: number) => number): number {
  const g = fl.grid, N = g.N
  let e2 = 0, r2 = 0
  for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const k = g.cell(p, i, j), w = fl.metric.cells.sqrtG[k], ref = b(k)
    e2 += (a[k] - ref) ** 2 * w
    r2 += ref * ref * w
  }
  return Math.sqrt(e2 / r2)
}

/** Carries a blob with the spin/wind for `steps` steps, then back, by the conservative transport; L2 against the start. */
function roundTrip(fl: SurfaceFluid, wind: [number, number, number], spin: [number, number, number], c0: number[], r: number): number {
  setBlob(fl, c0, r)
  const start = Float64Array.from(fl.density[0])
  const tr = new SurfaceTransport(fl.grid, fl.metric, fl.kernels)
  for (const s of [1, -1]) {
    setWorldWind(fl, [s * wind[0], s * wind[1], s * wind[2]], [s * spin[0], s * spin[1], s * spin[2]])
    if (spin.some((x) => x !== 0)) fl.project()
    else fl.grid.syncShared(fl.fx, fl.fy)
    for (let k = 0; k < 20; k++) tr.advect(fl.density[0], fl.fx, fl.fy, 0.05)
  }
  return relL2(fl, fl.density[0], (k) => start[k])
}

/** The sphere-like cage without its top face: an open box whose rim is a wall. */
function openBox() {
  const m = sphereLikeCage()
  let top = 0
  m.faces.forEach((f, i) => { if (f.every((v) => m.positions[3 * v + 1] > 0)) top = i })
  return { positions: m.positions, faces: m.faces.filter((_, i) => i !== top) }
}

/** A curved 4 x 4 sheet of quads: an open edge all round and four sheet corners (one face each). */
function openSheet() {
  const positions: number[] = []
  for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) positions.push(0.25 * i - 0.5, 0.15 * Math.sin(1.1 * i) * Math.cos(0.9 * j), 0.25 * j - 0.5)
  const faces: number[][] = []
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) faces.push([i + 5 * j, i + 5 * (j + 1), i + 1 + 5 * (j + 1), i + 1 + 5 * j])
  return { positions, faces }
}

/**
 * The curved sheet with its 2 x 2 corner cut out: the notch's inner corner is a boundary vertex
 * with three faces (Biermann et al.'s rule there, catmullClark.ts).
 */
function notchedSheet() {
  const m = openSheet()
  return { positions: m.positions, faces: m.faces.filter((_, f) => !(f % 4 >= 2 && Math.floor(f / 4) >= 2)) }
}

/** A triangulated curved sheet: after one step, boundary vertices with 3 and 4 faces. */
function triangulatedSheet() {
  const m = openSheet()
  const faces: number[][] = []
  m.faces.forEach(([a, b, c, d], f) => faces.push(...(f % 2 ? [[a, b, c], [a, c, d]] : [[a, b, d], [b, c, d]])))
  return { positions: m.positions, faces }
}

describe('flows on Catmull-Clark surfaces (Stam 2003)', () => {
  for (const [name, cage] of [['genus 0 (sphere-like)', sphereLikeCage()], ['genus 1 (torus)', torusCage()], ['genus 2 (double torus)', doubleTorusCage()], ['open box (rim as a wall)', openBox()], ['open sheet with four corners', openSheet()], ['open sheet with a notch (a rim vertex with 3 faces)', notchedSheet()], ['triangulated open sheet (rim vertices with 3 and 4 faces)', triangulatedSheet()]] as const) {
    it(`${name}: the projection matrix is symmetric (to 1e-14 of its largest entry), PCG converges and the divergence left is below 1e-8 of what it was`, () => {
      const fl = fluidOn(cage, 8)
      const A = fl.projection.A
      const entries = new Map<number, number>()
      let largest = 0
      for (let r = 0; r < A.n; r++) for (let q = A.rowPtr[r]; q < A.rowPtr[r + 1]; q++) {
        entries.set(r * A.n + A.col[q], A.val[q])
        largest = Math.max(largest, Math.abs(A.val[q]))
      }
      for (const [key, v] of entries) {
        const r = Math.floor(key / A.n), c = key % A.n
        expect(Math.abs(v - (entries.get(c * A.n + r) ?? 0))).toBeLessThan(1e-14 * largest)
      }
      // A rough flux field (deterministic), projected.
      let s = 7
      const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5
      for (let f = 0; f < fl.fx.length; f++) fl.fx[f] = rnd()
      for (let f = 0; f < fl.fy.length; f++) fl.fy[f] = rnd()
      fl.grid.syncShared(fl.fx, fl.fy)
      const d = new Float64Array(A.n)
      fl.projection.divergence(fl.fx, fl.fy, d)
      const before = Math.max(...d.map(Math.abs))
      fl.project(1e-12)
      expect(fl.lastProjection.iterations).toBeGreaterThan(0)
      expect(fl.lastProjection.residual).toBeLessThan(1e-12)
      fl.projection.divergence(fl.fx, fl.fy, d)
      expect(Math.max(...d.map(Math.abs)) / before).toBeLessThan(1e-8)
    })
  }

  it('a spinning sphere-like surface: divergence after projection below 1e-5 of the spin rate with the metric, and over 100 times that without it (Figure 3)', () => {
    const spin: [number, number, number] = [0.3, 1, 0.2]
    const rate = Math.hypot(...spin)
    const truth = fluidOn(sphereLikeCage(), 16)
    const flat = fluidOn(sphereLikeCage(), 16, true)
    for (const fl of [truth, flat]) {
      setWorldWind(fl, [0, 0, 0], spin)
      fl.project(1e-10)
    }
    const withMetric = trueDivergence(truth, truth) / rate, without = trueDivergence(truth, flat) / rate
    console.log(`max |div u| / spin rate after projection: with the metric ${withMetric.toExponential(2)}, parameter squares taken as flat ${without.toExponential(2)}`)
    expect(withMetric).toBeLessThan(1e-5)
    expect(without).toBeGreaterThan(100 * withMetric)
  })

  /** A blob spun round the cage's y axis under gravity for 200 steps (diffusing at k): the total's largest relative change. */
  function spinningBlobDrift(cage: Parameters<typeof fluidOn>[0], N: number, k: number, refinedDiffusionFrom?: number): number {
    const fl = fluidOn(cage, N, false, refinedDiffusionFrom)
    setWorldWind(fl, [0, 0, 0], [0.3, 1, 0.2])
    fl.project()
    setBlob(fl, [0.3, 0.2, 0.4], 0.2)
    const m0 = fl.total(0)
    let worst = 0
    for (let t = 0; t < 200; t++) {
      fl.step(0.02, { gravity: [0, -0.5, 0] }, k)
      worst = Math.max(worst, Math.abs(fl.total(0) / m0 - 1))
    }
    return worst
  }

  for (const [N, open] of [[8, false], [16, false], [8, true]] as const) {
    it(`density is conserved within 1% over 200 steps of the whole solver on ${open ? 'an open box (nothing crosses its rim)' : 'a closed surface (sphere-like'}, ${N}^2 cells a patch, no sources${open ? '' : ')'}`, () => {
      const worst = spinningBlobDrift(open ? openBox() : sphereLikeCage(), N, 0)
      console.log(`${N}^2: density total within ${worst.toExponential(2)} of the start over 200 steps`)
      expect(worst).toBeLessThan(0.01)
    }, 120_000)
  }

  // Implicit diffusion (eq. 18) keeps the paint: L's columns sum to zero, so each step's change
  // is the solve's residual summed (its tolerance, surfaceFluid.ts DIFFUSION_TOLERANCE), by
  // float64 Jacobi-CG (these sizes' default) and by float64 refinement of float32 solves (the
  // default from 65,536 unknowns, forced here).
  for (const [N, k, solver] of [[8, 1e-3, 'float64 CG'], [16, 1e-2, 'float64 CG'], [8, 1e-3, 'float32 refined'], [16, 1e-2, 'float32 refined']] as const) {
    it(`paint diffusing at ${k} m^2/s with the flow on a closed surface keeps its total within 5e-6 over 200 steps, ${N}^2 cells a patch, ${solver}`, () => {
      const worst = spinningBlobDrift(sphereLikeCage(), N, k, solver === 'float32 refined' ? 0 : undefined)
      console.log(`${N}^2, k ${k}, ${solver}: density total within ${worst.toExponential(2)} of the start over 200 diffusing steps`)
      expect(worst).toBeLessThan(5e-6)
    }, 120_000)
  }

  for (const [name, cage] of [['an open sheet with four corners', openSheet], ['an open sheet with a notch (a rim vertex with 3 faces)', notchedSheet]] as const) it(`density is conserved within 1% over 200 steps on ${name} (its edge a wall), 8^2 cells a patch`, () => {
    const fl = fluidOn(cage(), 8)
    setWorldWind(fl, [0.4, 0, 0.2], [0, 1, 0])
    fl.project()
    setBlob(fl, [0.1, 0, 0.1], 0.25)
    const m0 = fl.total(0)
    let worst = 0
    for (let t = 0; t < 200; t++) {
      fl.step(0.02, { gravity: [0.5, -0.5, 0.3] })
      worst = Math.max(worst, Math.abs(fl.total(0) / m0 - 1))
    }
    console.log(`${name} 8^2: density total within ${worst.toExponential(2)} of the start over 200 steps`)
    expect(worst).toBeLessThan(0.01)
  }, 120_000)

  for (const N of [16, 32]) {
    it(`no seams, ${N}^2 cells a patch: a blob carried across patch edges on the flat top of a slab is the exact translated blob within 5% (L2)`, () => {
      const fl = fluidOn(slab(6), N)
      const wind: [number, number, number] = [1.2, 0, 0.6]
      setWorldWind(fl, wind)
      fl.grid.syncShared(fl.fx, fl.fy)
      const c0 = [-0.6, 0.5, -0.3], r = 0.35
      setBlob(fl, c0, r)
      const tr = new SurfaceTransport(fl.grid, fl.metric, fl.kernels)
      for (let s = 0; s < 25; s++) tr.advect(fl.density[0], fl.fx, fl.fy, 1 / 25)
      const pos = fl.metric.positions
      const err = relL2(fl, fl.density[0], (k) => Math.exp(-((pos[3 * k] - c0[0] - wind[0]) ** 2 + (pos[3 * k + 1] - c0[1]) ** 2 + (pos[3 * k + 2] - c0[2] - wind[2]) ** 2) / (r * r)))
      console.log(`${N}^2: L2 against the exact translated blob ${err.toFixed(4)}`)
      expect(err).toBeLessThan(0.05)
    })

    it(`no seams next to a rim vertex with 3 faces, ${N}^2: a blob carried past the inner corner of a flat notched sheet is as close to the exact translated blob (L2) as on the sheet without the notch, and its centroid within 1% of the travel`, () => {
      // 8 x 8 quads of 0.25 in the plane y = 0, the notch x > 0.25, z > 0.25 cut out: its
      // inner corner (0.25, 0, 0.25) has three faces. The blob passes under it, 0.4 from the
      // corner, through the corner's faces (its density at the notch's walls is below 1e-3).
      const flatSheet = (notch: boolean) => {
        const positions: number[] = []
        for (let j = 0; j <= 8; j++) for (let i = 0; i <= 8; i++) positions.push(-1 + 0.25 * i, 0, -1 + 0.25 * j)
        const faces: number[][] = []
        for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) if (!notch || i < 5 || j < 5) faces.push([i + 9 * j, i + 9 * (j + 1), i + 1 + 9 * (j + 1), i + 1 + 9 * j])
        return { positions, faces }
      }
      const wind: [number, number, number] = [1.2, 0, 0]
      const c0 = [-0.7, 0, -0.15], r = 0.15
      const errs = [true, false].map((notch) => {
        const fl = fluidOn(flatSheet(notch), N)
        setWorldWind(fl, wind)
        fl.grid.syncShared(fl.fx, fl.fy)
        setBlob(fl, c0, r)
        const tr = new SurfaceTransport(fl.grid, fl.metric, fl.kernels)
        for (let k = 0; k < 25; k++) tr.advect(fl.density[0], fl.fx, fl.fy, 1 / 25)
        const pos = fl.metric.positions
        const c = centroid(fl)
        return {
          l2: relL2(fl, fl.density[0], (k) => Math.exp(-((pos[3 * k] - c0[0] - wind[0]) ** 2 + pos[3 * k + 1] ** 2 + (pos[3 * k + 2] - c0[2]) ** 2) / (r * r))),
          drift: Math.hypot(c[0] - c0[0] - wind[0], c[1], c[2] - c0[2]) / Math.hypot(...wind),
        }
      })
      console.log(`${N}^2: past the notch's corner L2 ${errs[0].l2.toFixed(4)}, centroid off by ${errs[0].drift.toExponential(2)} of the travel; on the whole sheet ${errs[1].l2.toFixed(4)}, ${errs[1].drift.toExponential(2)}`)
      // The transport's limiter squares the blob's top on either sheet (about 0.1-0.2 in L2
      // at these resolutions): the corner must not add to that.
      expect(errs[0].l2).toBeLessThan(1.25 * errs[1].l2 + 0.02)
      expect(errs[0].drift).toBeLessThan(0.01)
    }, 60_000)

    it(`no seams at an extraordinary vertex, ${N}^2: a blob spun over a valence-3 vertex and back ends within 5% (L2) of where the same round trip on flat patches ends`, () => {
      const overVertex = roundTrip(fluidOn(sphereLikeCage(), N), [0, 0, 0], [0, 1.6, 0], [0.42, 0.3, 0], 0.15)
      // Flat: the slab's cells are 0.5 / N wide, the sphere-like patches' about 0.3 / N: blob
      // and travel scaled so both cover the same number of cells.
      const s = 0.5 / 0.3
      const onFlat = roundTrip(fluidOn(slab(6), N), [0.55 * s, 0, 0], [0, 0, 0], [-0.45 * s, 0.5, 0.1], 0.15 * s)
      console.log(`${N}^2: round trip L2 over a valence-3 vertex ${overVertex.toFixed(4)}, on flat patches ${onFlat.toFixed(4)}`)
      expect(Math.abs(overVertex - onFlat)).toBeLessThan(0.05)
    }, 60_000)
  }
})
