// The tetrahedral liquid family: liquids on lattice-based tetrahedral meshes (Chentanez et al.
// 2007, seed 003), hosted by simulation domains (Solver: Liquid (tetrahedral)). Each frame it
// hands out the surface triangulation S_t with per-vertex velocity, and the contouring grid's
// signed distance as the 'liquid' level set (the raymarcher's and VDB export's regular volume),
// and a cut-away of its tetrahedra that the viewport shows on request (cutaway.ts).
import { withDomainParams } from '../../scene/examples/build'
import { damBreakScene } from '../../scene/examples/damBreak'
import type { SolverFamily } from '../family'
import { compileTetLiquidInput, compileTetLiquidScene, type TetLiquidCompiled } from './compileTetLiquid'
import { CUTAWAY_MESH } from './cutaway'
import { estimateTetLiquid } from './estimate'
import { TET_LIQUID_DOMAIN_PARAMS } from './params'
import type { TetLiquidInput } from './tetLiquidSetup'
import { TET_LIQUID_PHASES, TetLiquidSolver } from './tetLiquidSolver'

export const tetLiquidFamily: SolverFamily<TetLiquidCompiled, TetLiquidInput> = {
  id: 'tetliquid',
  label: 'Liquid (tetrahedral: Chentanez et al. 2007)',
  about: 'Tetrahedral liquid: semi-Lagrangian contouring, isosurface stuffing every step, finite volumes on the tetrahedra with algebraic multigrid, and thickening of thin sheets (Chentanez, Feldman, Labelle, O\'Brien and Shewchuk 2007).',
  hosts: ['domain'],
  reads: ['obstacle', 'emitter'],
  params: { domain: TET_LIQUID_DOMAIN_PARAMS },
  phases: TET_LIQUID_PHASES,
  // Meshing and surface tracking are TypeScript on the bake thread; the projection's sparse
  // products and sweeps (the AMG-preconditioned CG) run on the WebAssembly kernels, whose rows
  // give the TypeScript reference's bits, in memory freed after each solve (KernelBackend.scoped).
  kernels: 'wasm',
  display: { controls: ['meshCutaway'], particleColors: [], cutaway: { mesh: CUTAWAY_MESH, label: 'Tetrahedra (cut-away)' } },
  compileSetup: (doc, hostId, opts) => compileTetLiquidScene(doc, hostId, opts),
  compileInput: (doc, hostId, c, frame) => compileTetLiquidInput(doc, hostId, (frame - 1) / doc.meta.fps, doc.meta.fps, c.meshes),
  create: (c) => new TetLiquidSolver(c.setup),
  layout: (c) => `tetrahedral mesh at ${c.setup.spacing.toPrecision(3)} m, surface at ${c.setup.contourSpacing.toPrecision(3)} m`,
  estimate: estimateTetLiquid,
  conformanceScene() {
    const doc = withDomainParams(damBreakScene({ resolution: 12 }).doc, { solver: 'tetliquid' })
    return { doc: { ...doc, meta: { ...doc.meta, frameEnd: 6 } }, hostId: doc.objects.find((o) => o.kind === 'domain')!.id, meshes: [], badParam: { key: 'tetTolerance', value: 2 } }
  },
}
