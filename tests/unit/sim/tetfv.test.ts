// Finite volumes on tetrahedra (src-shared/sim/core/tetfv; issue 15): topology and its refusals,
// geometry, the divergence theorem on linear fields, the projection matrix (symmetric, positive
// semidefinite closed / definite open), projection to solver tolerance on regular and jittered
// Kuhn meshes, and the velocity reconstructions (Whitney per tet, dual-cell vertex coordinates,
// barycentric in tets, MLS constant and linear). Tolerances are in the test names.
import { describe, expect, it } from 'vitest'
import type { Preconditioner } from '../../../src-shared/sim/core/pcg'
import { Prng } from '../../../src-shared/sim/core/prng'
import type { CsrMatrix } from '../../../src-shared/sim/core/sparse/csr'
import { computeTetGeometry, type TetGeometry } from '../../../src-shared/sim/core/tetfv/tetGeometry'
import {
  barycentricCoordinates,
  dualCellVertexWeights,
  interpolateInTet,
  interpolateTetsToVertices,
  locateTet,
  tetVelocityVectors,
} from '../../../src-shared/sim/core/tetfv/tetInterpolation'
import { TetMls } from '../../../src-shared/sim/core/tetfv/tetMls'
import { TetProjection, tetDivergence, tetVolumeDivergence } from '../../../src-shared/sim/core/tetfv/tetProjection'
import { buildTetTopology, type TetTopology } from '../../../src-shared/sim/core/tetfv/tetTopology'
import { errorOf } from '../../fixtures/errorOf'
import { tetGrid } from '../../fixtures/tetGrid'

interface Mesh {
  positions: Float64Array
  topo: TetTopology
  geom: TetGeometry
  h: number
}

function mesh(n: number, jitter = 0, seed = 7): Mesh {
  const g = tetGrid(n, n, n, { jitter, seed })
  const topo = buildTetTopology(g.positions, g.tets)
  return { positions: g.positions, topo, geom: computeTetGeometry(topo, g.positions), h: g.h }
}

/** A linear field u(x) = b + G x (G row-major 3x3). */
type Linear = { b: [number, number, number]; G: number[] }
function evalLinear(L: Linear, x: number, y: number, z: number, out: Float64Array | number[], o = 0): void {
  const { b, G } = L
  out[o] = b[0] + G[0] * x + G[1] * y + G[2] * z
  out[o + 1] = b[1] + G[3] * x + G[4] * y + G[5] * z
  out[o + 2] = b[2] + G[6] * x + G[7] * y + G[8] * z
}

/** u_f = u(face barycentre) . n_f. */
function faceSamples(m: Mesh, L: Linear): Float64Array {
  const { faceCount: nf } = m.topo
  const { faceCentres: C, faceNormals: N } = m.geom
  const u = new Float64Array(nf)
  const v = [0, 0, 0]
  for (let f = 0; f < nf; f++) {
    evalLinear(L, C[3 * f], C[3 * f + 1], C[3 * f + 2], v)
    u[f] = v[0] * N[3 * f] + v[1] * N[3 * f + 1] + v[2] * N[3 * f + 2]
  }
  return u
}

/** One flag per face: open where every vertex of a boundary face has x = xmax. */
function openSide(m: Mesh, xmax = 1): Uint8Array {
  const open = new Uint8Array(m.topo.faceCount)
  for (const f of m.topo.boundaryFaces) {
    let all = true
    for (let k = 0; k < 3; k++) if (Math.abs(m.positions[3 * m.topo.faceVertices[3 * f + k]] - xmax) > 1e-12) all = false
    if (all) open[f] = 1
  }
  return open
}

function maxAbs(a: ArrayLike<number>): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]))
  return m
}

function norm2(a: ArrayLike<number>): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * a[i]
  return Math.sqrt(s)
}

function dense(A: CsrMatrix): Float64Array {
  const D = new Float64Array(A.n * A.n)
  for (let i = 0; i < A.n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) D[i * A.n + A.col[p]] += A.val[p]
  return D
}

/** Eigenvalues of a dense symmetric matrix by cyclic Jacobi rotations, increasing. */
function symmetricEigenvalues(D0: Float64Array, n: number): number[] {
  const D = D0.slice()
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += D[i * n + j] ** 2
    if (off < 1e-30) break
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = D[p * n + q]
        if (apq === 0) continue
        const theta = (D[q * n + q] - D[p * n + p]) / (2 * apq)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) {
          const dkp = D[k * n + p], dkq = D[k * n + q]
          D[k * n + p] = c * dkp - s * dkq
          D[k * n + q] = s * dkp + c * dkq
        }
        for (let k = 0; k < n; k++) {
          const dpk = D[p * n + k], dqk = D[q * n + k]
          D[p * n + k] = c * dpk - s * dqk
          D[q * n + k] = s * dpk + c * dqk
        }
      }
  }
  return Array.from({ length: n }, (_, i) => D[i * n + i]).sort((a, b) => a - b)
}

const LIN: Linear = { b: [0.3, -0.2, 0.5], G: [0.7, -1.1, 0.4, 0.2, 0.9, -0.6, -0.8, 0.5, 1.3] }
const CONST: Linear = { b: [0.3, -1.7, 0.9], G: [0, 0, 0, 0, 0, 0, 0, 0, 0] }

describe('tetfv topology', () => {
  it('finds every face once with 1 or 2 tets, normals from tet a to tet b (outwards on the boundary), consistent signs and adjacency', () => {
    const n = 4
    const m = mesh(n, 0.15)
    const { topo, geom } = m
    const nt = 6 * n ** 3
    expect(topo.tetCount).toBe(nt)
    // Each cube face holds 2 triangles; each tet has 4 faces, interior faces are counted twice.
    expect(topo.boundaryFaces.length).toBe(2 * 6 * n * n)
    expect(topo.faceCount).toBe((4 * nt + topo.boundaryFaces.length) / 2)
    const { faceTets, tetFaces, tetFaceSigns, tetNeighbours } = topo
    const { faceNormals: N, faceCentres: C, tetCentres: T } = geom
    for (let f = 0; f < topo.faceCount; f++) {
      const a = faceTets[2 * f], b = faceTets[2 * f + 1]
      const to = b >= 0 ? [T[3 * b], T[3 * b + 1], T[3 * b + 2]] : [C[3 * f], C[3 * f + 1], C[3 * f + 2]]
      const dot = (to[0] - T[3 * a]) * N[3 * f] + (to[1] - T[3 * a + 1]) * N[3 * f + 1] + (to[2] - T[3 * a + 2]) * N[3 * f + 2]
      expect(dot).toBeGreaterThan(0)
    }
    for (let t = 0; t < nt; t++)
      for (let k = 0; k < 4; k++) {
        const f = tetFaces[4 * t + k]
        expect(tetFaceSigns[4 * t + k]).toBe(faceTets[2 * f] === t ? 1 : -1)
        const other = faceTets[2 * f] === t ? faceTets[2 * f + 1] : faceTets[2 * f]
        expect(tetNeighbours[4 * t + k]).toBe(other)
        // Local face k is opposite local vertex k.
        const opp = topo.tets[4 * t + k]
        expect([0, 1, 2].map((i) => topo.faceVertices[3 * f + i])).not.toContain(opp)
      }
    for (let v = 0; v < topo.vertexCount; v++) {
      for (let i = topo.vertexTetStart[v]; i < topo.vertexTetStart[v + 1]; i++) expect(Array.from(topo.tets.subarray(4 * topo.vertexTets[i], 4 * topo.vertexTets[i] + 4))).toContain(v)
      for (let i = topo.vertexFaceStart[v]; i < topo.vertexFaceStart[v + 1]; i++) expect(Array.from(topo.faceVertices.subarray(3 * topo.vertexFaces[i], 3 * topo.vertexFaces[i] + 3))).toContain(v)
    }
    // An interior Kuhn vertex has 24 tets and 36 faces.
    const mid = 2 + (n + 1) * (2 + (n + 1) * 2)
    expect(topo.vertexTetStart[mid + 1] - topo.vertexTetStart[mid]).toBe(24)
    expect(topo.vertexFaceStart[mid + 1] - topo.vertexFaceStart[mid]).toBe(36)
  })

  it('refuses an inverted tet, a face shared by three tets, overlapping tets and NaN positions by name (INVALID_PARAM)', () => {
    const g = tetGrid(2, 2, 2)
    const bad = g.tets.slice()
    ;[bad[4 * 5 + 1], bad[4 * 5 + 2]] = [bad[4 * 5 + 2], bad[4 * 5 + 1]]
    const inv = errorOf(() => buildTetTopology(g.positions, bad))
    expect(inv.code).toBe('INVALID_PARAM')
    expect(inv.message).toMatch(/Tet 5 is inverted/)
    expect(inv.details).toMatchObject({ tet: 5 })

    // Three tets on the triangle (0, 1, 2) in z = 0: apexes 3 (above), 4 (below) and 5 (above).
    const P = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 1, 0.2, 0.2, -1, 0.3, 0.3, 2])
    const three = new Int32Array([0, 1, 2, 3, 0, 2, 1, 4, 0, 1, 2, 5])
    const nm = errorOf(() => buildTetTopology(P, three))
    expect(nm.code).toBe('INVALID_PARAM')
    expect(nm.message).toMatch(/face \(0, 1, 2\) is shared by 3 or more tets.*not manifold/)

    const overlap = errorOf(() => buildTetTopology(P, new Int32Array([0, 1, 2, 3, 0, 1, 2, 5])))
    expect(overlap.code).toBe('INVALID_PARAM')
    expect(overlap.message).toMatch(/same side/)

    const nan = g.positions.slice()
    nan[3 * 4 + 1] = Number.NaN
    const e = errorOf(() => buildTetTopology(nan, g.tets))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.message).toMatch(/vertex 4 has a non-finite coordinate/)

    const flat = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])
    expect(errorOf(() => buildTetTopology(flat, new Int32Array([0, 1, 2, 3]))).message).toMatch(/Tet 0 is flat/)
    expect(errorOf(() => buildTetTopology(flat, new Int32Array([0, 1, 2, 9]))).message).toMatch(/outside/)
  })
})

describe('tetfv geometry', () => {
  it('volumes sum to the box (1e-12), faces close every tet (sum s A n = 0 to 1e-14 relative), eq. 7 distance = eq. 4 distance (1e-12 relative)', () => {
    const m = mesh(6, 0.15)
    const { topo, geom } = m
    let vol = 0
    for (let t = 0; t < topo.tetCount; t++) vol += geom.volumes[t]
    expect(Math.abs(vol - 1)).toBeLessThan(1e-12)
    let area = 0
    for (const f of topo.boundaryFaces) area += geom.faceAreas[f]
    expect(Math.abs(area - 6)).toBeLessThan(1e-12)
    let closure = 0
    for (let t = 0; t < topo.tetCount; t++) {
      const s = [0, 0, 0]
      let scale = 0
      for (let k = 0; k < 4; k++) {
        const f = topo.tetFaces[4 * t + k]
        const w = topo.tetFaceSigns[4 * t + k] * geom.faceAreas[f]
        for (let c = 0; c < 3; c++) s[c] += w * geom.faceNormals[3 * f + c]
        scale += geom.faceAreas[f]
      }
      closure = Math.max(closure, Math.hypot(s[0], s[1], s[2]) / scale)
    }
    expect(closure).toBeLessThan(1e-14)
    let gap = 0
    for (let f = 0; f < topo.faceCount; f++) gap = Math.max(gap, Math.abs(geom.centreDistance[f] - geom.heightDistance[f]) / geom.heightDistance[f])
    console.log(`tetfv geometry: |eq. 7 - eq. 4| / d <= ${gap.toExponential(2)} over ${topo.faceCount} faces (jittered 6^3 x 6)`)
    expect(gap).toBeLessThan(1e-12)
  })
})

describe('tetfv divergence', () => {
  it('the face samples of u = (x, 2y, -z) have divergence 2 in every tet (1e-12), regular and jittered', () => {
    for (const jitter of [0, 0.15]) {
      const m = mesh(6, jitter)
      const u = faceSamples(m, { b: [0.1, 0.2, -0.3], G: [1, 0, 0, 0, 2, 0, 0, 0, -1] })
      const div = new Float64Array(m.topo.tetCount)
      tetDivergence(m.topo, m.geom, u, div)
      let err = 0
      for (let t = 0; t < div.length; t++) err = Math.max(err, Math.abs(div[t] - 2))
      console.log(`tetfv divergence (jitter ${jitter}): max |div - 2| = ${err.toExponential(2)}`)
      expect(err).toBeLessThan(1e-12)
    }
  })
})

describe('tetfv projection', () => {
  it('the matrix is symmetric (1e-14 relative), a weighted Laplacian, semidefinite closed (lambda_0 / lambda_max < 1e-13) and definite with an open side (lambda_0 > 0)', () => {
    for (const jitter of [0, 0.15]) {
      const m = mesh(3, jitter)
      for (const withOpen of [false, true]) {
        const proj = new TetProjection(m.topo, m.geom, withOpen ? { openFaces: openSide(m) } : {})
        const A = proj.A
        const D = dense(A)
        const n = A.n
        let asym = 0, maxEntry = 0, rowSum = 0
        for (let i = 0; i < n; i++) {
          let s = 0
          for (let j = 0; j < n; j++) {
            asym = Math.max(asym, Math.abs(D[i * n + j] - D[j * n + i]))
            maxEntry = Math.max(maxEntry, Math.abs(D[i * n + j]))
            if (i !== j) expect(D[i * n + j]).toBeLessThanOrEqual(0)
            s += D[i * n + j]
          }
          expect(s).toBeGreaterThanOrEqual(-1e-14 * D[i * n + i])
          rowSum = Math.max(rowSum, Math.abs(s))
        }
        expect(asym / maxEntry).toBeLessThan(1e-14)
        const ev = symmetricEigenvalues(D, n)
        const lmax = ev[n - 1]
        console.log(
          `tetfv matrix (jitter ${jitter}, ${withOpen ? 'open side' : 'closed'}, ${n} tets): asym ${(asym / maxEntry).toExponential(1)}, ` +
            `lambda_0 / lambda_max = ${(ev[0] / lmax).toExponential(2)}, lambda_1 / lambda_max = ${(ev[1] / lmax).toExponential(2)}`,
        )
        if (withOpen) {
          expect(ev[0]).toBeGreaterThan(1e-6 * lmax)
          expect(proj.closedComponentCount).toBe(0)
        } else {
          expect(Math.abs(ev[0])).toBeLessThan(1e-13 * lmax)
          expect(ev[1]).toBeGreaterThan(1e-6 * lmax)
          expect(rowSum).toBeLessThan(1e-14 * lmax)
          expect(proj.closedComponentCount).toBe(1)
        }
      }
    }
  })

  it('projecting a random face field leaves max_t |V div u|_t below 1e-10 x ||V div u*||_2 (the solver tolerance) on regular and jittered meshes, closed and with an open side; closed faces keep their velocity', () => {
    const tol = 1e-10
    for (const jitter of [0, 0.15]) {
      const m = mesh(10, jitter)
      const { topo, geom } = m
      for (const withOpen of [false, true]) {
        const rng = new Prng(11)
        const open = withOpen ? openSide(m) : new Uint8Array(topo.faceCount)
        const u = new Float64Array(topo.faceCount)
        for (let f = 0; f < u.length; f++) u[f] = rng.range(-1, 1)
        if (!withOpen) {
          // Compatible walls: remove the net flux through the closed boundary.
          let flux = 0, area = 0
          for (const f of topo.boundaryFaces) {
            flux += geom.faceAreas[f] * u[f]
            area += geom.faceAreas[f]
          }
          for (const f of topo.boundaryFaces) u[f] -= flux / area
        }
        const before = u.slice()
        const div0 = new Float64Array(topo.tetCount)
        tetVolumeDivergence(topo, geom, u, div0)
        const t0 = performance.now()
        const proj = new TetProjection(topo, geom, { openFaces: open })
        const t1 = performance.now()
        const stats = proj.project(u, { tolerance: tol, maxIterations: 2000 })
        const t2 = performance.now()
        const div = new Float64Array(topo.tetCount)
        tetVolumeDivergence(topo, geom, u, div)
        const rel = maxAbs(div) / norm2(div0)
        const divU = new Float64Array(topo.tetCount)
        const divU0 = new Float64Array(topo.tetCount)
        tetDivergence(topo, geom, u, divU)
        tetDivergence(topo, geom, before, divU0)
        console.log(
          `tetfv projection (jitter ${jitter}, ${withOpen ? 'open side' : 'closed'}, ${topo.tetCount} tets): ${stats.iterations} SGS-PCG iterations, ` +
            `residual ${stats.residual.toExponential(2)}, max|V div| / ||V div*|| = ${rel.toExponential(2)}, max|div| / max|div*| = ${(maxAbs(divU) / maxAbs(divU0)).toExponential(2)}, ` +
            `incompatibility ${stats.incompatibility.toExponential(1)}, assemble ${(t1 - t0).toFixed(1)} ms, solve ${(t2 - t1).toFixed(1)} ms`,
        )
        expect(stats.converged).toBe(true)
        expect(rel).toBeLessThan(tol)
        expect(stats.incompatibility).toBeLessThan(1e-12)
        for (const f of topo.boundaryFaces) if (!open[f]) expect(u[f]).toBe(before[f])
      }
    }
  })

  it('a divergence-free linear field u = (y, z, x) is left unchanged (max |du_f| < 1e-10 x max |u_f|), closed and with an open side', () => {
    const m = mesh(8, 0.15)
    for (const withOpen of [false, true]) {
      const u = faceSamples(m, { b: [0, 0, 0], G: [0, 1, 0, 0, 0, 1, 1, 0, 0] })
      const before = u.slice()
      const proj = new TetProjection(m.topo, m.geom, withOpen ? { openFaces: openSide(m) } : {})
      const stats = proj.project(u, { tolerance: 1e-10 })
      let change = 0
      for (let f = 0; f < u.length; f++) change = Math.max(change, Math.abs(u[f] - before[f]))
      console.log(`tetfv projection of (y, z, x) (${withOpen ? 'open side' : 'closed'}): max |du_f| / max |u_f| = ${(change / maxAbs(before)).toExponential(2)} after ${stats.iterations} iterations`)
      expect(change).toBeLessThan(1e-10 * maxAbs(before))
    }
  })

  it("takes any Preconditioner (a Jacobi factory, plain CG), and eq. 4 distances give the eq. 7 matrix (1e-12 relative)", () => {
    const m = mesh(6, 0.15)
    const open = openSide(m)
    const jacobi = (A: CsrMatrix): Preconditioner => {
      const inv = new Float64Array(A.n)
      for (let i = 0; i < A.n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] === i) inv[i] = 1 / A.val[p]
      return { apply: (r, z) => { for (let i = 0; i < A.n; i++) z[i] = inv[i] * r[i] } }
    }
    const rng = new Prng(3)
    const u0 = Float64Array.from({ length: m.topo.faceCount }, () => rng.range(-1, 1))
    for (const pre of [jacobi, null]) {
      const u = u0.slice()
      const proj = new TetProjection(m.topo, m.geom, { openFaces: open, preconditioner: pre })
      const stats = proj.project(u, { tolerance: 1e-10 })
      const div = new Float64Array(m.topo.tetCount)
      const div0 = new Float64Array(m.topo.tetCount)
      tetVolumeDivergence(m.topo, m.geom, u, div)
      tetVolumeDivergence(m.topo, m.geom, u0, div0)
      console.log(`tetfv projection with ${pre ? 'Jacobi' : 'no'} preconditioner: ${stats.iterations} iterations`)
      expect(maxAbs(div) / norm2(div0)).toBeLessThan(1e-10)
    }
    const a = new TetProjection(m.topo, m.geom, { openFaces: open, distance: 'centres' }).A
    const b = new TetProjection(m.topo, m.geom, { openFaces: open, distance: 'heights' }).A
    let gap = 0
    for (let p = 0; p < a.val.length; p++) gap = Math.max(gap, Math.abs(a.val[p] - b.val[p]) / Math.abs(a.val[p]))
    expect(gap).toBeLessThan(1e-12)
  })
})

describe('tetfv projection boundaries', () => {
  it("two separate closed boxes: the constants are removed per component, divergence below 1e-10 x ||V div u*||; 'face' ghosts double the open-face weight (1e-14)", () => {
    const a = tetGrid(3, 3, 3, { jitter: 0.1, seed: 2 })
    const b = tetGrid(2, 3, 4, { jitter: 0.1, seed: 4, origin: [2, 0, 0] })
    const nva = a.positions.length / 3
    const positions = new Float64Array([...a.positions, ...b.positions])
    const tets = new Int32Array([...a.tets, ...Array.from(b.tets, (v) => v + nva)])
    const topo = buildTetTopology(positions, tets)
    const geom = computeTetGeometry(topo, positions)
    const proj = new TetProjection(topo, geom)
    expect(proj.componentCount).toBe(2)
    expect(proj.closedComponentCount).toBe(2)
    const rng = new Prng(8)
    const u = Float64Array.from({ length: topo.faceCount }, () => rng.range(-1, 1))
    for (const f of topo.boundaryFaces) u[f] = 0
    const div0 = new Float64Array(topo.tetCount)
    tetVolumeDivergence(topo, geom, u, div0)
    const stats = proj.project(u, { tolerance: 1e-10 })
    const div = new Float64Array(topo.tetCount)
    tetVolumeDivergence(topo, geom, u, div)
    expect(stats.incompatibility).toBeLessThan(1e-12)
    expect(maxAbs(div) / norm2(div0)).toBeLessThan(1e-10)

    const m = mesh(3, 0.1)
    const open = openSide(m)
    const mirror = new TetProjection(m.topo, m.geom, { openFaces: open })
    const onFace = new TetProjection(m.topo, m.geom, { openFaces: open, openGhost: 'face' })
    let checked = 0
    for (let f = 0; f < m.topo.faceCount; f++) {
      if (open[f]) {
        expect(Math.abs(onFace.faceWeight[f] - 2 * mirror.faceWeight[f])).toBeLessThan(1e-14 * onFace.faceWeight[f])
        checked++
      } else expect(onFace.faceWeight[f]).toBe(mirror.faceWeight[f])
    }
    expect(checked).toBe(2 * 9)
  })
})

describe('tetfv reconstruction', () => {
  const m = mesh(6, 0.15)
  const { topo, geom, positions } = m
  const interior = (v: number): boolean => !topo.boundaryVertex[v]

  it('Whitney per-tet vectors reproduce a constant field (1e-12) and a linear one at the barycentre to O(h) (printed)', () => {
    const out = new Float64Array(3 * topo.tetCount)
    tetVelocityVectors(topo, geom, positions, faceSamples(m, CONST), out)
    let err = 0
    for (let t = 0; t < topo.tetCount; t++) for (let c = 0; c < 3; c++) err = Math.max(err, Math.abs(out[3 * t + c] - CONST.b[c]))
    expect(err).toBeLessThan(1e-12)
    tetVelocityVectors(topo, geom, positions, faceSamples(m, LIN), out)
    const exact = [0, 0, 0]
    let lin = 0
    for (let t = 0; t < topo.tetCount; t++) {
      evalLinear(LIN, geom.tetCentres[3 * t], geom.tetCentres[3 * t + 1], geom.tetCentres[3 * t + 2], exact)
      for (let c = 0; c < 3; c++) lin = Math.max(lin, Math.abs(out[3 * t + c] - exact[c]))
    }
    const gNorm = Math.sqrt(LIN.G.reduce((s, g) => s + g * g, 0))
    console.log(`tetfv Whitney: constant error ${err.toExponential(2)}; linear field at barycentres max error ${lin.toExponential(3)} = ${(lin / (gNorm * m.h)).toFixed(3)} |G| h`)
    expect(lin).toBeLessThan(gNorm * m.h)
  })

  it('dual-cell vertex coordinates reproduce a linear field sampled at barycentres exactly at interior vertices (1e-10)', () => {
    const w = dualCellVertexWeights(topo, geom, positions)
    const tetVals = new Float64Array(3 * topo.tetCount)
    for (let t = 0; t < topo.tetCount; t++) evalLinear(LIN, geom.tetCentres[3 * t], geom.tetCentres[3 * t + 1], geom.tetCentres[3 * t + 2], tetVals, 3 * t)
    const vert = new Float64Array(3 * topo.vertexCount)
    interpolateTetsToVertices(topo, w, tetVals, vert)
    const exact = [0, 0, 0]
    let errIn = 0, errAll = 0, interiorCount = 0, negative = 0
    for (let v = 0; v < topo.vertexCount; v++) {
      evalLinear(LIN, positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], exact)
      let e = 0
      for (let c = 0; c < 3; c++) e = Math.max(e, Math.abs(vert[3 * v + c] - exact[c]))
      if (!w.fallback[v]) errAll = Math.max(errAll, e)
      if (interior(v)) {
        errIn = Math.max(errIn, e)
        interiorCount++
        expect(w.fallback[v]).toBe(0)
        for (let i = topo.vertexTetStart[v]; i < topo.vertexTetStart[v + 1]; i++) if (w.weights[i] < 0) negative++
      }
    }
    // From the Whitney vectors of the face samples instead (the simulation's path): O(h).
    const whit = new Float64Array(3 * topo.tetCount)
    tetVelocityVectors(topo, geom, positions, faceSamples(m, LIN), whit)
    interpolateTetsToVertices(topo, w, whit, vert)
    let errWhitney = 0
    for (let v = 0; v < topo.vertexCount; v++) {
      if (!interior(v)) continue
      evalLinear(LIN, positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], exact)
      for (let c = 0; c < 3; c++) errWhitney = Math.max(errWhitney, Math.abs(vert[3 * v + c] - exact[c]))
    }
    console.log(
      `tetfv dual-cell: ${interiorCount} interior vertices max error ${errIn.toExponential(2)}, all non-fallback vertices ${errAll.toExponential(2)}, ` +
        `${w.fallbackCount} of ${topo.vertexCount} vertices fell back, ${negative} negative interior weights; from Whitney vectors ${errWhitney.toExponential(3)}`,
    )
    expect(errIn).toBeLessThan(1e-10)
    expect(errAll).toBeLessThan(1e-10)
  })

  it('barycentric interpolation of vertex values reproduces a linear field (1e-12) and locateTet walks to the containing tet', () => {
    const vals = new Float64Array(3 * topo.vertexCount)
    for (let v = 0; v < topo.vertexCount; v++) evalLinear(LIN, positions[3 * v], positions[3 * v + 1], positions[3 * v + 2], vals, 3 * v)
    const rng = new Prng(5)
    const out = new Float64Array(3)
    const lambda = new Float64Array(4)
    const exact = [0, 0, 0]
    let err = 0
    for (let s = 0; s < 2000; s++) {
      const t = Math.floor(rng.next() * topo.tetCount)
      // A random point of tet t.
      let l = [rng.next(), rng.next(), rng.next(), rng.next()]
      const sum = l[0] + l[1] + l[2] + l[3]
      l = l.map((x) => x / sum)
      const p = [0, 0, 0]
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) p[c] += l[k] * positions[3 * topo.tets[4 * t + k] + c]
      interpolateInTet(positions, topo.tets, vals, t, p[0], p[1], p[2], out, 0)
      evalLinear(LIN, p[0], p[1], p[2], exact)
      for (let c = 0; c < 3; c++) err = Math.max(err, Math.abs(out[c] - exact[c]))
      const found = locateTet(topo, positions, 0, p[0], p[1], p[2])
      expect(found).toBeGreaterThanOrEqual(0)
      barycentricCoordinates(positions, topo.tets, found, p[0], p[1], p[2], lambda)
      for (let k = 0; k < 4; k++) expect(lambda[k]).toBeGreaterThanOrEqual(-1e-12)
    }
    expect(err).toBeLessThan(1e-12)
    expect(locateTet(topo, positions, 0, 1.5, 0.5, 0.5)).toBe(-1)
  })

  it('MLS constant reproduces a constant field (1e-12 at vertices, 1e-10 at points) and MLS linear a linear field (1e-10) on the jittered mesh', () => {
    const mls = new TetMls(topo, geom, positions)
    const vert = new Float64Array(3 * topo.vertexCount)
    mls.vertexVelocities(faceSamples(m, CONST), vert)
    let errV = 0
    for (let v = 0; v < topo.vertexCount; v++) for (let c = 0; c < 3; c++) errV = Math.max(errV, Math.abs(vert[3 * v + c] - CONST.b[c]))
    expect(errV).toBeLessThan(1e-12)
    const uC = faceSamples(m, CONST)
    const uL = faceSamples(m, LIN)
    const rng = new Prng(9)
    const out = new Float64Array(3)
    const exact = [0, 0, 0]
    let errC = 0, errL = 0, errLC = 0, fallbacks = 0, biggest = 0
    for (let s = 0; s < 1000; s++) {
      const t = Math.floor(rng.next() * topo.tetCount)
      let l = [rng.next(), rng.next(), rng.next(), rng.next()]
      const sum = l[0] + l[1] + l[2] + l[3]
      l = l.map((x) => x / sum)
      const p = [0, 0, 0]
      for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) p[c] += l[k] * positions[3 * topo.tets[4 * t + k] + c]
      biggest = Math.max(biggest, mls.neighbourhood(t))
      mls.constantAt(uC, t, p[0], p[1], p[2], out, 0)
      for (let c = 0; c < 3; c++) errC = Math.max(errC, Math.abs(out[c] - CONST.b[c]))
      if (!mls.linearAt(uL, t, p[0], p[1], p[2], out, 0)) fallbacks++
      evalLinear(LIN, p[0], p[1], p[2], exact)
      for (let c = 0; c < 3; c++) errL = Math.max(errL, Math.abs(out[c] - exact[c]))
      mls.constantAt(uL, t, p[0], p[1], p[2], out, 0)
      for (let c = 0; c < 3; c++) errLC = Math.max(errLC, Math.abs(out[c] - exact[c]))
    }
    console.log(
      `tetfv MLS: constant basis at vertices ${errV.toExponential(2)}, at points ${errC.toExponential(2)}; linear basis on a linear field ${errL.toExponential(2)} ` +
        `(${fallbacks} fallbacks, up to ${biggest} faces), constant basis on the linear field ${errLC.toExponential(3)}`,
    )
    expect(errC).toBeLessThan(1e-10)
    expect(fallbacks).toBe(0)
    expect(errL).toBeLessThan(1e-10)
  })
})
