// The liquid substep's whole-grid passes as kernel rows (liquid/cellPassKernels.ts, twins in
// wasm/assembly/cellPasses.ts), the markers' density target (liquid/densityCorrection.ts,
// wasm/assembly/densityTarget.ts), gravity (core ADD_UNIFORM_ACCELERATION, wasm/assembly/
// forces.ts), the pressure's warm start and the drift's system (liquid/ghostFluidKernels.ts,
// wasm/assembly/ghostFluid.ts), the census and list of its unknowns (liquid/activeKernels.ts,
// wasm/assembly/active.ts) and closed faces taking the obstacle's velocity (core/boundaries.ts
// ENFORCE_SOLID_VELOCITY, twin in wasm/assembly/boundaries.ts): each
// reference against the rule it implements, written out per cell here, and the WebAssembly
// twins against the references bit for bit on 1, 2 and 3 threads (odd sizes, so the SIMD
// loops have tails; NaN and -0 fractions among the faces).
import { afterAll, describe, expect, it } from 'vitest'
import { ENFORCE_SOLID_VELOCITY } from '../../../../src-shared/sim/core/boundaries'
import { ADD_UNIFORM_ACCELERATION } from '../../../../src-shared/sim/core/kernelRows'
import { DENSITY_TARGET, MAX_DENSITY_ERROR } from '../../../../src-shared/sim/liquid/densityCorrection'
import { GHOST_DRIFT_RHS, GHOST_WARM_START } from '../../../../src-shared/sim/liquid/ghostFluidKernels'
import { ACTIVE_LIST, ACTIVE_ROW_COUNT } from '../../../../src-shared/sim/liquid/activeKernels'
import { type GridSpec, MacGrid } from '../../../../src-shared/sim/core/grid'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { ADD_FACES, CLEAR_OUTSIDE_LIQUID, COUNT_LABEL, FILL_UNMARKED, HEAT_REACH, LABEL_CELLS, PLANE_SUMS } from '../../../../src-shared/sim/liquid/cellPassKernels'
import { AIR, LIQUID, SOLID } from '../../../../src-shared/sim/liquid/viscosity'
import { everyBackend } from '../everyBackend'
import { rng } from './surface/meshChecks'

const SPEC: GridSpec = { nx: 7, ny: 6, nz: 5, dx: 0.1, origin: [0, 0, 0] }
const N = SPEC.nx * SPEC.ny * SPEC.nz
const PLANE = SPEC.nx * SPEC.ny

/** Every pass once on backend b from the same random inputs; copies of what each wrote. */
function passes(b: KernelBackend) {
  const { nx, ny, nz } = SPEC
  const r = rng(5)
  const kind = b.u8(N)
  for (let c = 0; c < N; c++) kind[c] = r() < 0.45 ? LIQUID : r() < 0.8 ? AIR : SOLID
  const kindIn = Uint8Array.from(kind)
  const marksIn = Uint8Array.from({ length: N }, () => Math.floor(r() * 6))
  // CLEAR_OUTSIDE_LIQUID
  const cleared = b.u8(N)
  cleared.set(marksIn)
  b.run(CLEAR_OUTSIDE_LIQUID, kind, cleared, PLANE, nz)
  // FILL_UNMARKED
  const filled = b.f32(N)
  for (let c = 0; c < N; c++) filled[c] = r() * 100
  const filledIn = Float32Array.from(filled)
  const marks = b.u8(N)
  marks.set(marksIn)
  b.run(FILL_UNMARKED, filled, marks, 293.15, PLANE, nz)
  // HEAT_REACH
  const temp = b.f32(N), tempOld = b.f32(N), reach = b.u8(N).fill(9)
  for (let c = 0; c < N; c++) {
    temp[c] = 280 + 40 * r()
    tempOld[c] = 280 + 40 * r()
  }
  const tempIn = Float32Array.from(temp)
  b.run(HEAT_REACH, temp, tempOld, marks, reach, PLANE, nz)
  // COUNT_LABEL
  const partial = b.f64(nz)
  const liquid = b.run(COUNT_LABEL, kind, LIQUID, PLANE, partial, nz)
  const solid = b.run(COUNT_LABEL, kind, SOLID, PLANE, partial, nz)
  // PLANE_SUMS: markers per cell, summed per plane.
  const markersPerCell = b.i32(N)
  for (let c = 0; c < N; c++) markersPerCell[c] = Math.floor(r() * 30)
  b.run(PLANE_SUMS, markersPerCell, PLANE, partial, nz)
  const planeSums = Float64Array.from(partial)
  // ADD_FACES
  const sum = new MacGrid(SPEC, { kernels: b }), x = new MacGrid(SPEC, { kernels: b }), y = new MacGrid(SPEC, { kernels: b })
  for (const g of [x, y]) for (const a of [g.u, g.v, g.w]) for (let f = 0; f < a.length; f++) a[f] = (r() * 2 - 1) * 10 ** Math.floor(r() * 6 - 3)
  b.run(ADD_FACES, sum, x, y, nx, ny, nz)
  // LABEL_CELLS: the tracked phi and the markers' kernel weights (4 per cell, the weight first).
  const phi = b.f32(N), weights = b.f64(4 * N), out = b.f32(N)
  for (let c = 0; c < N; c++) {
    phi[c] = (r() * 2 - 1) * 0.2
    weights[4 * c] = r() * 5.2
    weights[4 * c + 1] = r()
  }
  // Values at the thresholds themselves: phi at the offset, the weight at the bulk threshold.
  phi[3] = 0.025
  phi[4] = 0.025 + 1e-4
  phi[5] = 0.025 - 1e-4
  weights[4 * 6] = 4.4
  weights[4 * 7] = 4.4 - 1e-9
  const labels = b.u8(N)
  labels.set(kindIn)
  b.run(LABEL_CELLS, phi, labels, weights, out, 4.4, 4.8, 0.1, 1e-4, 0.025, PLANE, nz)
  // ENFORCE_SOLID_VELOCITY, with and without an obstacle velocity.
  const fr = new MacGrid(SPEC, { kernels: b }), wall = new MacGrid(SPEC, { kernels: b })
  for (const a of [fr.u, fr.v, fr.w]) for (let f = 0; f < a.length; f++) {
    const t = r()
    a[f] = t < 0.25 ? 0 : t < 0.3 ? -0 : t < 0.35 ? Number.NaN : t < 0.4 ? -0.5 : r()
  }
  for (const a of [wall.u, wall.v, wall.w]) for (let f = 0; f < a.length; f++) a[f] = r() * 4 - 2
  const moving = new MacGrid(SPEC, { kernels: b }), still = new MacGrid(SPEC, { kernels: b })
  for (const g of [moving, still]) for (const a of [g.u, g.v, g.w]) for (let f = 0; f < a.length; f++) a[f] = 5 + f
  b.run(ENFORCE_SOLID_VELOCITY, moving, fr, wall.u, wall.v, wall.w, nx, ny, nz)
  b.run(ENFORCE_SOLID_VELOCITY, still, fr, null, null, null, nx, ny, nz)
  // ADD_UNIFORM_ACCELERATION: gravity along y, then a wind along x and z.
  const accel = new MacGrid(SPEC, { kernels: b })
  for (const a of [accel.u, accel.v, accel.w]) for (let f = 0; f < a.length; f++) a[f] = r() * 2 - 1
  const accelIn = [Float32Array.from(accel.u), Float32Array.from(accel.v), Float32Array.from(accel.w)]
  b.run(ADD_UNIFORM_ACCELERATION, accel.u, accel.v, accel.w, 0, -9.81, 0, 1 / 48, nx, ny, nz)
  const gravity = [Float32Array.from(accel.u), Float32Array.from(accel.v), Float32Array.from(accel.w)]
  b.run(ADD_UNIFORM_ACCELERATION, accel.u, accel.v, accel.w, 0.3, 0, -1.7, 0.013, nx, ny, nz)
  // DENSITY_TARGET: counts around the seeded 8 a cell, phi mostly deep inside.
  const target = b.f32(N).fill(99), dcount = b.i32(N), dphi = b.f32(N), dsolid = b.f32(N), dpartial = b.f64(nz)
  for (let c = 0; c < N; c++) {
    dcount[c] = r() < 0.3 ? 8 : Math.floor(r() * 20)
    dphi[c] = r() < 0.8 ? -0.2 : (r() * 2 - 1) * 0.1
    dsolid[c] = r() < 0.9 ? 0 : r()
  }
  const targets = b.run(DENSITY_TARGET, target, dcount, kind, dphi, dsolid, 0.07, 1 / 8, -0.05, nx, ny, nz, dpartial)
  // GHOST_WARM_START and GHOST_DRIFT_RHS: unknowns where diag != 0; stale, NaN and infinite
  // solutions among the old values.
  const diag = b.f64(N), q = b.f64(N), rhs = b.f64(N).fill(5), x0 = b.f64(N).fill(5)
  for (let c = 0; c < N; c++) {
    diag[c] = r() < 0.3 ? 0 : 1 + r()
    const t = r()
    q[c] = t < 0.05 ? Number.NaN : t < 0.1 ? -Infinity : t < 0.15 ? Infinity : r() * 2 - 1
  }
  const qIn = Float64Array.from(q)
  // The drift's last potential, stale where the cell left the liquid: the same old values.
  x0.set(q)
  // ACTIVE_ROW_COUNT and ACTIVE_LIST (activePcg.ts gather): the census of diag's nonzeros per
  // grid row, then the list from each plane's start.
  diag[7] = -0
  diag[8] = Number.NaN
  const rowCount = b.i32(ny * nz), planeStart = b.i32(nz + 1), cells = b.i32(N).fill(-7)
  b.run(ACTIVE_ROW_COUNT, diag, rowCount, nx, ny, nz)
  for (let k = 0, t = 0; k <= nz; k++) {
    planeStart[k] = t
    if (k < nz) for (let j = 0; j < ny; j++) t += rowCount[ny * k + j]
  }
  b.run(ACTIVE_LIST, diag, cells, planeStart, PLANE, nz)
  b.run(GHOST_WARM_START, q, diag, PLANE, nz)
  b.run(GHOST_DRIFT_RHS, rhs, x0, diag, target, PLANE, nz)
  const copy = (g: MacGrid) => [Float32Array.from(g.u), Float32Array.from(g.v), Float32Array.from(g.w)]
  return {
    markersPerCell: Int32Array.from(markersPerCell),
    planeSums,
    rowCount: Int32Array.from(rowCount),
    cells: Int32Array.from(cells),
    diag: Float64Array.from(diag),
    qIn,
    q: Float64Array.from(q),
    rhs: Float64Array.from(rhs),
    x0: Float64Array.from(x0),
    accelIn,
    gravity,
    wind: copy(accel),
    target: Float32Array.from(target),
    targets,
    dcount: Int32Array.from(dcount),
    dphi: Float32Array.from(dphi),
    dsolid: Float32Array.from(dsolid),
    kindIn,
    marksIn,
    cleared: Uint8Array.from(cleared),
    filledIn,
    filled: Float32Array.from(filled),
    tempIn,
    tempOld: Float32Array.from(tempOld),
    temp: Float32Array.from(temp),
    reach: Uint8Array.from(reach),
    liquid,
    solid,
    x: copy(x),
    y: copy(y),
    sum: copy(sum),
    phi: Float32Array.from(phi),
    weights: Float64Array.from(weights),
    labels: Uint8Array.from(labels),
    out: Float32Array.from(out),
    fr: copy(fr),
    wall: copy(wall),
    moving: copy(moving),
    still: copy(still),
  }
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the liquid substep\'s grid passes as kernel rows', () => {
  it('the references follow their rules cell by cell', () => {
    const g = passes(TS_KERNELS)
    let liquid = 0, solid = 0
    for (let c = 0; c < N; c++) {
      const isLiquid = g.kindIn[c] === LIQUID
      liquid += isLiquid ? 1 : 0
      solid += g.kindIn[c] === SOLID ? 1 : 0
      expect(g.cleared[c]).toBe(isLiquid ? g.marksIn[c] : 0)
      expect(g.filled[c]).toBe(g.marksIn[c] === 0 ? Math.fround(293.15) : g.filledIn[c])
      expect(g.temp[c]).toBe(g.marksIn[c] === 0 ? g.tempOld[c] : g.tempIn[c])
      expect(g.reach[c]).toBe(g.marksIn[c] >= 1 && g.marksIn[c] <= 3 ? 1 : 0)
      // The pressure's phi: min(tracked - offset, ((4.4 - weight) / 4.8) dx) at dx = 0.1.
      const u = Math.min(g.phi[c] - 0.025, ((4.4 - g.weights[4 * c]) / 4.8) * 0.1)
      const label = g.kindIn[c] === SOLID ? SOLID : u < 0 ? LIQUID : AIR
      expect(g.labels[c]).toBe(label)
      expect(g.out[c]).toBe(Math.fround(label === LIQUID ? Math.min(u, -1e-4) : Math.max(u, 1e-4)))
    }
    expect(g.liquid).toBe(liquid)
    for (let k = 0; k < SPEC.nz; k++) expect(g.planeSums[k]).toBe(g.markersPerCell.subarray(k * PLANE, (k + 1) * PLANE).reduce((a, x) => a + x, 0))
    // The density target (densityCorrection.ts): full liquid cells (no obstacle, no air
    // neighbour, phi <= -dx/2) take scale * clamp(n / ppc - 1); every other cell 0.
    const { nx, ny, nz } = SPEC
    const at = (i: number, j: number, k: number) => (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? -1 : g.kindIn[i + nx * (j + ny * k)])
    let targets = 0
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      const c = i + nx * (j + ny * k)
      const full = at(i, j, k) === LIQUID && g.dsolid[c] === 0 && g.dphi[c] <= -0.05 && [at(i - 1, j, k), at(i + 1, j, k), at(i, j - 1, k), at(i, j + 1, k), at(i, j, k - 1), at(i, j, k + 1)].every((n) => n !== AIR)
      const e = Math.max(-MAX_DENSITY_ERROR, Math.min(MAX_DENSITY_ERROR, g.dcount[c] / 8 - 1))
      expect(g.target[c]).toBe(full ? Math.fround(0.07 * e) : 0)
      targets += full && e !== 0 ? 1 : 0
    }
    expect(g.targets).toBe(targets)
    // The pressure's unknowns, listed in increasing index order (activePcg.ts).
    const unknowns: number[] = []
    for (let c = 0; c < N; c++) if (g.diag[c] !== 0) unknowns.push(c)
    expect(Array.from(g.cells.subarray(0, unknowns.length))).toEqual(unknowns)
    expect(g.cells[unknowns.length]).toBe(-7)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) expect(g.rowCount[ny * k + j]).toBe(unknowns.filter((c) => Math.floor(c / nx) === j + ny * k).length)
    // The pressure's warm start and the drift's system with its warm start (ghostFluid.ts).
    for (let c = 0; c < N; c++) {
      expect(g.q[c]).toBe(g.diag[c] !== 0 && Number.isFinite(g.qIn[c]) ? g.qIn[c] : 0)
      expect(g.rhs[c]).toBe(g.diag[c] !== 0 ? g.target[c] : 0)
      expect(g.x0[c]).toBe(g.diag[c] !== 0 && Number.isFinite(g.qIn[c]) ? g.qIn[c] : 0)
    }
    expect(targets).toBeGreaterThan(3)
    expect(g.solid).toBe(solid)
    expect(liquid).toBeGreaterThan(N / 4)
    for (let a = 0; a < 3; a++) {
      for (let f = 0; f < g.sum[a].length; f++) expect(g.sum[a][f]).toBe(Math.fround(g.x[a][f] + g.y[a][f]))
      const dv = [0, (1 / 48) * -9.81, 0][a], dw = [0.3 * 0.013, 0, -1.7 * 0.013][a]
      for (let f = 0; f < g.accelIn[a].length; f++) {
        expect(g.gravity[a][f]).toBe(Math.fround(g.accelIn[a][f] + dv))
        expect(g.wind[a][f]).toBe(dw === 0 ? g.gravity[a][f] : Math.fround(g.gravity[a][f] + dw))
      }
      let closed = 0
      for (let f = 0; f < g.fr[a].length; f++) {
        const shut = g.fr[a][f] <= 0 // (NaN: open, as the reference's test reads it)
        closed += shut ? 1 : 0
        expect(g.moving[a][f]).toBe(shut ? g.wall[a][f] : 5 + f)
        expect(g.still[a][f]).toBe(shut ? 0 : 5 + f)
      }
      expect(closed).toBeGreaterThan(g.fr[a].length / 4)
    }
  })

  it('WebAssembly equals the references bit for bit on 1, 2 and 3 threads', () => {
    const ref = passes(TS_KERNELS)
    for (const [threads, b] of everyBackend(backends).slice(1)) {
      const got = passes(b)
      expect(got.targets).toBe(ref.targets)
      for (const key of ['cleared', 'filled', 'temp', 'reach', 'labels', 'out', 'target', 'q', 'rhs', 'x0', 'rowCount', 'cells', 'planeSums'] as const) expect(Array.from(got[key]), `${key}, ${threads}`).toEqual(Array.from(ref[key]))
      expect(got.liquid).toBe(ref.liquid)
      expect(got.solid).toBe(ref.solid)
      for (let a = 0; a < 3; a++) {
        for (const key of ['sum', 'moving', 'still', 'gravity', 'wind'] as const) {
          // (Compared as bits: -0 and 0 differ.)
          expect(Array.from(new Uint32Array(got[key][a].buffer)), `${key} ${a}, ${threads}`).toEqual(Array.from(new Uint32Array(ref[key][a].buffer)))
        }
      }
    }
  })
})
