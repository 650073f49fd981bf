// `eddy bench hybrid`'s pressure section: the issue asks whether MGPCG on the hexahedral part
// (McAdams et al. 2010, the smoke family's solver) would beat AMG-preconditioned CG (seed 003
// section 3.5, the hybrid family's solver). The all-hexahedral mesh of the ramp jet is where
// MGPCG is at its best (no tetrahedra to couple): there the hybrid matrix is exactly h times the
// smoke's weighted 7-point matrix (interior and open faces at distance h, closed faces left
// out), so both solve the same system from the same kind of right-hand side. Setup and solve
// are timed apart (the hybrid sets AMG up once per mesh; MGPCG's setup is per face weights).
import { AmgPreconditioner } from '../../src-shared/sim/core/amg/amgHierarchy'
import type { KernelBackend } from '../../src-shared/sim/core/kernelTypes'
import { MacGrid } from '../../src-shared/sim/core/grid'
import { PcgSolver } from '../../src-shared/sim/core/pcg'
import { PressureSolver } from '../../src-shared/sim/core/pressure'
import { Prng } from '../../src-shared/sim/core/prng'
import { CsrOperator, SparseVectorOps } from '../../src-shared/sim/core/sparse/ops'
import { FACE_INTERIOR, FACE_OPEN, type HybridMesh } from '../../src-shared/sim/hybrid/hybridMesh'
import { hybridPressureMatrix } from '../../src-shared/sim/hybrid/hybridProjection'

export interface SolverFigures { setupMs: number; solveMs: number; iterations: number }

const TOLERANCE = 1e-6

/**
 * The face open fractions of the grid system an all-hexahedral mesh's pressure matrix is h
 * times: 1 on every grid face an interior or open mesh face lies on, 0 elsewhere (walls, the
 * obstacle, cubes outside the mesh).
 */
export function gridFractionsOf(mesh: HybridMesh, fractions: MacGrid): void {
  fractions.u.fill(0); fractions.v.fill(0); fractions.w.fill(0)
  const cu = fractions.u.length, cv = fractions.v.length
  for (let f = 0; f < mesh.faceCount; f++) {
    const kind = mesh.faceKind[f], g = mesh.faceGridFace[f]
    if (g < 0 || (kind !== FACE_INTERIOR && kind !== FACE_OPEN)) continue
    if (g < cu) fractions.u[g] = 1
    else if (g < cu + cv) fractions.v[g - cu] = 1
    else fractions.w[g - cu - cv] = 1
  }
}

/** AMG-CG and MGPCG on the pressure system of an all-hexahedral mesh, from random divergence. */
export function comparePressureSolvers(mesh: HybridMesh, kernels: KernelBackend): { amg: SolverFigures; mgpcg: SolverFigures; unknowns: number } {
  if (mesh.tetCount > 0) throw new Error('comparePressureSolvers: an all-hexahedral mesh is needed')
  const n = mesh.cellCount
  const A = hybridPressureMatrix(mesh)
  const rng = new Prng(11)
  const b = new Float64Array(n)
  for (let i = 0; i < n; i++) b[i] = rng.range(-1, 1)

  const t0 = performance.now()
  const pre = new AmgPreconditioner(A, { kernels })
  const t1 = performance.now()
  const x = kernels.f64(n), rhs = kernels.f64(n)
  rhs.set(b)
  const st = new PcgSolver(new SparseVectorOps(n, kernels)).solve(new CsrOperator(pre.hierarchy.levels[0].A, kernels), pre, rhs, x, { tolerance: TOLERANCE, maxIterations: 5000 })
  const amg = { setupMs: t1 - t0, solveMs: performance.now() - t1, iterations: st.iterations }

  const spec = mesh.grid
  const alloc = kernels.kind === 'ts' ? {} : { kernels }
  const fractions = new MacGrid(spec, alloc), vel = new MacGrid(spec, alloc)
  gridFractionsOf(mesh, fractions)
  const fill = (velArr: Float32Array, frac: Float32Array) => { for (let i = 0; i < velArr.length; i++) velArr[i] = frac[i] > 0 ? rng.range(-1, 1) : 0 }
  const solver = new PressureSolver(spec, { kernels, warmStart: false, tolerance: TOLERANCE, maxIterations: 5000 })
  const run = () => {
    fill(vel.u, fractions.u); fill(vel.v, fractions.v); fill(vel.w, fractions.w)
    const s0 = performance.now()
    const stats = solver.project(vel, fractions)
    return { ms: performance.now() - s0, iterations: stats.iterations }
  }
  const first = run() // components and the multigrid levels are built here
  const second = run() // the same weights: the setup is reused
  const mgpcg = { setupMs: Math.max(0, first.ms - second.ms), solveMs: second.ms, iterations: second.iterations }
  return { amg, mgpcg, unknowns: n }
}
