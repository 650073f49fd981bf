// Semi-Lagrangian contouring's traces as a kernel row (sim/tetliquid/traceDistanceKernel.ts,
// twin wasm/assembly/tetLiquidTrace.ts): on TypeScript and on 1, 2 and 3 WebAssembly threads the
// row gives, at every contouring node and at points scattered over the domain and beyond it,
// the bits of the classes' S_t.distance(M_t.backtrace(p)) (MeshVelocity, ContouredSurface), on
// a dam break a few frames in (a graded mesh, with the surface thickening's medial particles on)
// and on a uniform one, every branch of the classes taken: points in a tetrahedron, just
// outside the mesh (its boundary's field), further out (the extrapolation grid), near S
// (exact distance, Phong lift), beyond the band. The second row (the velocity advection: the
// accurate field at the back-trace's end, along a normal) is checked the same way against
// MeshVelocity.backtrace and accurate, at the same points with scattered normals. On the uniform
// mesh a few vertex vectors and extrapolation nodes are NaN (a flow gone bad, which the solver's
// guard then reports): the rows give the classes' values there too, without trapping.
import { describe, expect, it } from 'vitest'
import { tetDamBreakScene } from '../../../../src-shared/scene/examples/tetLiquids'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { compileTetLiquidInput, compileTetLiquidScene } from '../../../../src-shared/sim/tetliquid/compileTetLiquid'
import { MeshLocation } from '../../../../src-shared/sim/tetliquid/meshLocation'
import { MeshVelocity } from '../../../../src-shared/sim/tetliquid/meshVelocity'
import { TetLiquidSolver } from '../../../../src-shared/sim/tetliquid/tetLiquidSolver'
import { TraceDistanceRow } from '../../../../src-shared/sim/tetliquid/traceDistanceRow'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

const BACKENDS = everyBackendOfFile()

interface Case { velocity: MeshVelocity; solver: TetLiquidSolver; points: Float64Array; n: number; dt: number }

/** Makes every 499th vertex vector component and every 401st extrapolation value NaN. */
function poison(k: Case): void {
  const V = k.velocity.vertexVelocity, E = k.velocity.flatArrays().ext.v
  for (let i = 0; i < V.length; i += 499) V[i] = Number.NaN
  for (let i = 0; i < E.length; i += 401) E[i] = Number.NaN
}

/** The dam break after `frames` frames at resolution 20, its M_t's field and S_t; points: every node, then scattered ones. */
function makeCase(mesh: 'graded' | 'uniform', frames: number): Case {
  const { doc } = tetDamBreakScene({ resolution: 20 })
  const domain = doc.objects.find((o) => o.kind === 'domain')!
  Object.assign(domain.params, { tetMesh: mesh })
  const { setup, meshes } = compileTetLiquidScene(doc, domain.id)
  const solver = new TetLiquidSolver(setup)
  for (let f = 1; f <= frames; f++) solver.step(1 / doc.meta.fps, compileTetLiquidInput(doc, domain.id, (f - 1) / doc.meta.fps, doc.meta.fps, meshes))
  const m = solver.currentMesh!
  const velocity = new MeshVelocity(m.topology, m.geometry, m.positions, solver.faceVelocities, new MeshLocation(m.topology, m.geometry, m.positions, setup.spacing, setup.box), { normals: m.solidNormals, velocities: m.solidVelocities })
  const g = solver.contouredSurface.grid
  const nodes = g.nx * g.ny * g.nz
  const extra = 20000
  const n = nodes + extra
  const points = new Float64Array(3 * n)
  let q = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, q += 3) {
    points[q] = g.origin[0] + i * g.h
    points[q + 1] = g.origin[1] + j * g.h
    points[q + 2] = g.origin[2] + k * g.h
  }
  // Scattered over the box and a little beyond it, in no order (the locator's cache misses).
  const r = rng(7)
  const { min, max } = setup.box
  for (let e = 0; e < extra; e++, q += 3) for (let a = 0; a < 3; a++) points[q + a] = min[a] - 0.1 + (max[a] - min[a] + 0.2) * r()
  // A long step: traces that leave the liquid.
  return { velocity, solver, points, n, dt: 3 / doc.meta.fps }
}

/** The classes' value at every point. */
function expected(k: Case): Float64Array {
  const out = new Float64Array(k.n), back = new Float64Array(3)
  const s = k.solver.contouredSurface
  for (let i = 0; i < k.n; i++) {
    k.velocity.backtrace(k.points[3 * i], k.points[3 * i + 1], k.points[3 * i + 2], k.dt, back, 0)
    out[i] = s.distance(back[0], back[1], back[2])
  }
  return out
}

/** The classes' advected normal velocity at every point along normals[3i..]. */
function expectedVelocities(k: Case, normals: Float64Array): Float64Array {
  const out = new Float64Array(k.n), back = new Float64Array(3), v = new Float64Array(3)
  for (let i = 0; i < k.n; i++) {
    k.velocity.backtrace(k.points[3 * i], k.points[3 * i + 1], k.points[3 * i + 2], k.dt, back, 0)
    k.velocity.accurate(back[0], back[1], back[2], v, 0)
    out[i] = v[0] * normals[3 * i] + v[1] * normals[3 * i + 1] + v[2] * normals[3 * i + 2]
  }
  return out
}

function runVelocityRow(k: Case, backend: KernelBackend, normals: Float64Array): Float64Array {
  return backend.scoped(() => {
    const row = new TraceDistanceRow(backend, k.velocity, null, k.dt)
    const points = row.triples(k.n), n = row.triples(k.n)
    points.set(k.points)
    n.set(normals)
    return Float64Array.from(row.velocities(points, n, k.n).subarray(0, k.n))
  })
}

/** Unit normals in scattered directions, one per point. */
function scatteredNormals(n: number): Float64Array {
  const r = rng(11), out = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    const z = 2 * r() - 1, a = 2 * Math.PI * r(), s = Math.sqrt(1 - z * z)
    out[3 * i] = s * Math.cos(a)
    out[3 * i + 1] = s * Math.sin(a)
    out[3 * i + 2] = z
  }
  return out
}

/** The first index where two arrays differ in bits, or -1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i
  return -1
}

function runRow(k: Case, backend: KernelBackend): Float64Array {
  return backend.scoped(() => {
    const row = new TraceDistanceRow(backend, k.velocity, k.solver.contouredSurface, k.dt)
    const points = row.triples(k.n)
    points.set(k.points)
    return Float64Array.from(row.distances(points, k.n).subarray(0, k.n))
  })
}

/** How many points take each of the classes' branches (where the trace starts; the value's kind). */
function branches(k: Case, values: Float64Array): Record<string, number> {
  const s = k.solver.contouredSurface, band = s.band
  const b = { inTet: 0, nearMesh: 0, farFromMesh: 0, clampedToBand: 0, exactNearS: 0 }
  const reach = 2 * k.solver.setup.spacing
  const bvh = k.velocity.flatArrays().boundary!
  const hit = new Float64Array(8)
  for (let i = 0; i < k.n; i++) {
    const x = k.points[3 * i], y = k.points[3 * i + 1], z = k.points[3 * i + 2]
    if (k.velocity.locate(x, y, z) >= 0) b.inTet++
    else if (bvh.closestPoint(x, y, z, hit, reach) >= 0) b.nearMesh++
    else b.farFromMesh++
    if (Math.abs(values[i]) === band) b.clampedToBand++
    else if (Math.abs(values[i]) < 0.5 * band) b.exactNearS++
  }
  return b
}

describe('semi-Lagrangian contouring\'s and the velocity advection\'s traces as kernel rows', () => {
  for (const [mesh, frames, nan] of [['graded', 6, false], ['uniform', 3, true]] as const) {
    it(`give the classes' distances and advected velocities bit for bit at every node and at scattered points, every branch taken, on every backend (${mesh} mesh, frame ${frames}${nan ? ', NaN in some vertex vectors' : ''})`, () => {
      const k = makeCase(mesh, frames)
      const ref = expected(k)
      const b = branches(k, ref)
      for (const [name, count] of Object.entries(b)) expect(count, name).toBeGreaterThan(k.n / 100)
      const normals = scatteredNormals(k.n)
      // The branches above are counted on the sound field; then, on the uniform mesh, NaN in it.
      if (nan) poison(k)
      const refDistance = nan ? expected(k) : ref
      const refVelocity = expectedVelocities(k, normals)
      // The flow moves: the advected velocities are not all zero; with NaN, some of them are NaN.
      expect(refVelocity.filter((v) => Math.abs(v) > 0.05).length).toBeGreaterThan(k.n / 100)
      if (nan) expect(refVelocity.filter((v) => Number.isNaN(v)).length).toBeGreaterThan(k.n / 1000)
      for (const [name, backend] of BACKENDS) {
        const got = runRow(k, backend)
        const first = firstDifference(got, refDistance)
        expect(first, `${name}: first point whose distance differs (${got[first]} against ${refDistance[first]})`).toBe(-1)
        expect(sameBits(got, refDistance)).toBe(true)
        const vel = runVelocityRow(k, backend, normals)
        const firstV = firstDifference(vel, refVelocity)
        expect(firstV, `${name}: first point whose velocity differs (${vel[firstV]} against ${refVelocity[firstV]})`).toBe(-1)
      }
    })
  }
})
