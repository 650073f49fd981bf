// The hybrid-mesh smoke family: gases on hybrid tetrahedral and hexahedral meshes (Feldman,
// O'Brien and Klingner 2005, seed 000), hosted by simulation domains (Solver: Smoke (hybrid
// mesh)). Regular cells in open space, tetrahedra conforming to the obstacles in a band around
// them; the grid smoke's emitters, buoyancy, vorticity confinement and vortex particles; massless
// tracker particles. Each frame hands out density, temperature and velocity resampled onto the
// domain's grid (the raymarcher's and VDB export's volumes) and the particles.
import type { SolverFamily } from '../family'
import { GAS_DISPLAY, gasPreview } from '../gasDisplay'
import { compileHybridInput, compileHybridScene, hybridLayout } from './compileHybrid'
import { estimateHybrid } from './estimate'
import { rampJetScene } from '../../scene/examples/hybridGases'
import type { HybridSetup, HybridSimInput } from './hybridInput'
import { HYBRID_PHASES, HybridSolver } from './hybridSolver'
import { HYBRID_DOMAIN_PARAMS, HYBRID_EMITTER_PARAMS } from './params'

export const hybridFamily: SolverFamily<HybridSetup, HybridSimInput> = {
  id: 'hybrid',
  label: 'Smoke (hybrid mesh: Feldman et al. 2005)',
  about: 'Hybrid-mesh smoke: regular hexahedra in open space and tetrahedra conforming to obstacles, joined by split transition cells, with moving least-squares interpolation (Feldman, O\'Brien and Klingner 2005), plus buoyancy, vorticity confinement and vortex particles.',
  hosts: ['domain'],
  reads: ['obstacle', 'emitter', 'vortexSeed'],
  params: { domain: HYBRID_DOMAIN_PARAMS, emitter: HYBRID_EMITTER_PARAMS },
  phases: HYBRID_PHASES,
  // The first mesh's pressure solve (AMG-preconditioned CG) runs on the WebAssembly kernels
  // over the bake's threads; meshing and the MLS interpolation are TypeScript on the bake thread.
  kernels: 'wasm',
  display: GAS_DISPLAY,
  compileSetup: (doc, hostId, opts) => compileHybridScene(doc, hostId, opts),
  compileInput: (doc, hostId, setup, frame) => compileHybridInput(doc, hostId, (frame - 1) / doc.meta.fps, doc.meta.fps, { meshes: setup.meshes }),
  create: (setup) => new HybridSolver(setup),
  layout: hybridLayout,
  estimate: estimateHybrid,
  preview: gasPreview,
  conformanceScene() {
    const { doc } = rampJetScene({ resolution: 10, frames: 4 })
    // Vortex and tracker particles too, so checkpoints and threads are checked with them.
    Object.assign(doc.objects.find((o) => o.id === 'jet')!.params, { vortexRate: 48, trackerRate: 240 })
    return { doc, hostId: 'domain', meshes: [], badParam: { key: 'hybridBand', value: 40 } }
  },
}
