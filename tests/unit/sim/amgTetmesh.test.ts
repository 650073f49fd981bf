// AMG on the pressure matrices of tetrahedral meshes (issue 15's validation): meshes of a ball
// and of the Stanford bunny by isosurface stuffing, the finite-volume projection matrix of
// sim/core/tetfv with every boundary face open (p = 0 beyond, a free surface), and the V-cycle's
// convergence factor per cycle (stationary cycles from a random start, geometric mean of the
// residual ratios over cycles 3..8) from about 15k to 350k unknowns: below 0.3 everywhere and
// not growing with size (within 1.25x over the two largest, where the hierarchy is 5 levels deep). (1M unknowns is in `eddy bench tetmesh`, not here: its setup
// takes seconds.) AMG-preconditioned CG then needs a handful of iterations where IC(0)-CG needs
// tens: iteration counts only, never times.
import { describe, expect, it } from 'vitest'
import { PrimitiveSdf } from '../../../src-shared/geometry/primitiveSdf'
import { MeshSdf } from '../../../src-shared/geometry/signedDistance'
import { stuffIsosurface } from '../../../src-shared/geometry/tetmesh/stuffing'
import type { ScalarField3 } from '../../../src-shared/geometry/tetmesh/cutPoints'
import { bunnyExampleMesh } from '../../../src-shared/scene/examples/bunnyMesh'
import { AmgHierarchy, AmgPreconditioner } from '../../../src-shared/sim/core/amg/amgHierarchy'
import { PcgSolver } from '../../../src-shared/sim/core/pcg'
import { Prng } from '../../../src-shared/sim/core/prng'
import type { CsrMatrix } from '../../../src-shared/sim/core/sparse/csr'
import { IncompleteCholesky } from '../../../src-shared/sim/core/sparse/incompleteCholesky'
import { CsrOperator, SparseVectorOps } from '../../../src-shared/sim/core/sparse/ops'
import { computeTetGeometry } from '../../../src-shared/sim/core/tetfv/tetGeometry'
import { TetProjection } from '../../../src-shared/sim/core/tetfv/tetProjection'
import { buildTetTopology } from '../../../src-shared/sim/core/tetfv/tetTopology'
import { convergenceFactor } from './amgMatrices'

/** The free-surface pressure matrix of the tetrahedral mesh of { sdf < 0 } at lattice spacing h. */
function pressureMatrix(sdf: ScalarField3, min: number[], max: number[], h: number): CsrMatrix {
  const m = stuffIsosurface(sdf, { spacing: h, bounds: { min, max } })
  const topology = buildTetTopology(m.positions, m.tets)
  const geometry = computeTetGeometry(topology, m.positions)
  const open = new Uint8Array(topology.faceCount)
  for (let f = 0; f < topology.faceCount; f++) if (topology.faceTets[2 * f + 1] < 0) open[f] = 1
  return new TetProjection(topology, geometry, { openFaces: open, preconditioner: null }).A
}


const ball = new PrimitiveSdf('sphere', { position: [0, 0, 0], rotation: [0, 0, 0], scale: [2, 2, 2] })
const bunny = new MeshSdf(bunnyExampleMesh())

describe('AMG on tetrahedral pressure matrices (factor < 0.3 per V-cycle from ~15k to ~350k unknowns, not growing: within 1.25x over the two largest)', () => {
  // Lattice cells across each shape for about 15k, 70k and 300k tetrahedra.
  const shapes: [string, ScalarField3, number[], number[], number, number[]][] = [
    ['ball', (x, y, z) => ball.distance(x, y, z), [-1.1, -1.1, -1.1], [1.1, 1.1, 1.1], 2, [13, 22, 34]],
    ['bunny', (x, y, z) => bunny.distance(x, y, z), bunny.bounds.min.map((v) => v - 0.5), bunny.bounds.max.map((v) => v + 0.5), Math.max(...[0, 1, 2].map((a) => bunny.bounds.max[a] - bunny.bounds.min[a])), [22, 36, 52]],
  ]
  for (const [name, sdf, min, max, size, resolutions] of shapes) {
    it(`${name}: the V-cycle's factor stays below 0.3 from ~15k to ~350k unknowns and does not grow, and AMG-CG beats ICCG in iterations`, () => {
      const factors: number[] = []
      for (const cells of resolutions) {
        const A = pressureMatrix(sdf, min, max, size / cells)
        const h = new AmgHierarchy(A)
        const f = convergenceFactor(h, A, 11)
        factors.push(f)
        console.log(`${name} ${A.n} unknowns: factor ${f.toFixed(3)}, levels ${h.levels.length}, complexity ${h.operatorComplexity.toFixed(2)}`)
        expect(f).toBeLessThan(0.3)
        if (cells === resolutions[resolutions.length - 1]) {
          const rng = new Prng(3)
          const b = new Float64Array(A.n).map(() => rng.range(-1, 1))
          const iterations = (pre: AmgPreconditioner | IncompleteCholesky) => new PcgSolver(new SparseVectorOps(A.n)).solve(new CsrOperator(A), pre, b, new Float64Array(A.n), { tolerance: 1e-8, maxIterations: 2000 }).iterations
          const amg = iterations(new AmgPreconditioner(h)), ic = iterations(new IncompleteCholesky(A))
          console.log(`${name} ${A.n} unknowns to 1e-8: AMG-CG ${amg} iterations, ICCG ${ic}`)
          expect(amg * 5).toBeLessThan(ic)
        }
      }
      // Small meshes reach the exactly solved coarsest level in fewer levels and converge faster
      // (0.10-0.15 here); what must not happen is growth with size once the hierarchy is deep.
      expect(Math.max(factors[1], factors[2]) / Math.min(factors[1], factors[2])).toBeLessThan(1.25)
    }, 120_000)
  }
})
