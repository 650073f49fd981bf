// The surface family: fluid flow and reaction-diffusion on Catmull-Clark surfaces of any
// topology (Stam 2003), hosted by a Catmull-Clark cage rather than a domain. Each frame it
// hands out the subdivided surface with per-vertex colour and density, per-patch colour
// textures and the density as a thin regular volume ('surfaceDensity', for VDB export; the
// viewport draws the coloured surface instead of raymarching it).
import { defaultCage } from '../../scene/defaults'
import { sceneObject } from '../../scene/examples/build'
import type { SceneDocument } from '../../scene/types'
import type { SolverFamily } from '../family'
import { compileSurfaceInput, compileSurfaceSetup, type SurfaceInput, type SurfaceSetup } from './compileSurface'
import { estimateSurface } from './estimate'
import { SURFACE_CAGE_PARAMS, SURFACE_EMITTER_PARAMS } from './params'
import { SURFACE_PHASES, SurfaceSolver } from './surfaceSolver'

/** A cube cage with a paint emitter on its top face, pushing paint across it. */
function paintedCube(): SceneDocument {
  const cage = sceneObject('cage', 'ccCage', 'Painted cube', { position: [0, 1, 0], cellsPerPatch: 8, surfaceGravity: [0, -2, 0] })
  cage.cage = defaultCage()
  const brush = sceneObject('brush', 'emitter', 'Brush', { shape: 'sphere', position: [0.2, 1.5, 0], scale: [0.3, 0.3, 0.3], velocity: [-1, 0, 0.5], rate: 20, paintColor: [0.1, 0.4, 0.9] })
  return { meta: { name: 'Surface conformance', fps: 24, frameStart: 1, frameEnd: 6 }, objects: [cage, brush], tracks: [], meshes: [] }
}

export const surfaceFamily: SolverFamily<SurfaceSetup, SurfaceInput> = {
  id: 'surface',
  label: 'Surface flow (Catmull-Clark surfaces: Stam 2003)',
  about: 'Surface flow: stable fluids and Gray-Scott reaction-diffusion on Catmull-Clark surfaces of any topology, one grid per patch joined by the transition maps (Stam 2003).',
  hosts: ['ccCage'],
  reads: ['emitter'],
  params: { ccCage: SURFACE_CAGE_PARAMS, emitter: SURFACE_EMITTER_PARAMS },
  phases: SURFACE_PHASES,
  // The projection's multigrid PCG and the diffusions' PCG run on the WebAssembly kernels over
  // the bake's threads (sparse products, multicolour Gauss-Seidel, vector updates).
  kernels: 'wasm',
  display: { controls: [], particleColors: [] },
  compileSetup: (doc, hostId, opts) => compileSurfaceSetup(doc, hostId, opts),
  compileInput: (doc, hostId, setup, frame) => compileSurfaceInput(doc, hostId, setup, frame),
  create: (setup) => new SurfaceSolver(setup),
  layout: (setup) => `${setup.atlas.patchCount} patches x ${setup.N}^2 cells`,
  estimate: estimateSurface,
  conformanceScene: () => ({ doc: paintedCube(), hostId: 'cage', meshes: [], badParam: { key: 'cellsPerPatch', value: 1000 } }),
}
