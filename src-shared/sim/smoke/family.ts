// The smoke family: vortex particles for smoke (Selle, Rasmussen and Fedkiw 2005) on a MAC
// grid with buoyancy and vorticity confinement, hosted by simulation domains. Its grid
// kernels run as WebAssembly SIMD over worker threads.
import type { SolverFamily } from '../family'
import { GAS_DISPLAY, gasPreview } from '../gasDisplay'
import { compileSmokeInput, compileSmokeScene, type SmokeSetup } from './compileSmoke'
import { estimateSmoke } from './estimate'
import { SMOKE_DOMAIN_PARAMS, SMOKE_EMITTER_PARAMS } from './params'
import { blenderSmokeScene } from './benchScene'
import type { SmokeSimInput } from './smokeInput'
import { SMOKE_PHASES, SmokeSolver } from './smokeSolver'

export const smokeFamily: SolverFamily<SmokeSetup, SmokeSimInput> = {
  id: 'smoke',
  label: 'Smoke (vortex particles, Selle 2005)',
  about: 'Smoke: vortex particles for smoke, water and explosions (Selle, Rasmussen, Fedkiw 2005) on a MAC grid, with buoyancy and vorticity confinement.',
  hosts: ['domain'],
  reads: ['obstacle', 'emitter', 'vortexSeed'],
  params: { domain: SMOKE_DOMAIN_PARAMS, emitter: SMOKE_EMITTER_PARAMS },
  phases: SMOKE_PHASES,
  kernels: 'wasm',
  display: GAS_DISPLAY,
  compileSetup: (doc, hostId, opts) => compileSmokeScene(doc, hostId, opts),
  // Frame f is animation time (f - 1) / fps; compileSmokeInput takes the time.
  compileInput: (doc, hostId, setup, frame) => compileSmokeInput(doc, hostId, (frame - 1) / doc.meta.fps, doc.meta.fps, { meshes: setup.meshes }),
  create: (setup) => new SmokeSolver(setup),
  layout: (setup) => `${setup.grid.nx}x${setup.grid.ny}x${setup.grid.nz} grid`,
  estimate: estimateSmoke,
  preview: gasPreview,
  conformanceScene() {
    const doc = blenderSmokeScene(12)
    doc.objects.find((o) => o.id === 'source')!.params.vortexRate = 48
    return { doc, hostId: 'domain', meshes: [], badParam: { key: 'vorticity', value: 50 } }
  },
}
