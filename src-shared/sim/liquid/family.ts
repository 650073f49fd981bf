// The liquid family: a free-surface marker-particle liquid with implicit variable viscosity,
// heat and melting (Carlson 2004, chapters 3, 4 and 6), hosted by simulation domains. Each
// frame it hands out its markers, its temperature and level-set volumes, and a watertight
// surface mesh built from the markers (surface/liquidSurface.ts).
import type { FrameData } from '../frame'
import type { SolverFamily } from '../family'
import type { Solver } from '../solver'
import { compileLiquidInput, compileLiquidScene, type LiquidCompiled } from './compileLiquid'
import { estimateLiquid } from './estimate'
import type { LiquidSimInput } from './liquidInput'
import { LIQUID_PHASES, LiquidSolver } from './liquidSolver'
import { LIQUID_DOMAIN_PARAMS, LIQUID_EMITTER_PARAMS } from './params'
import { LiquidSurfacer } from './surface/liquidSurface'
import { damBreakScene } from '../../scene/examples/damBreak'
import { sceneObject } from '../../scene/examples/build'

/**
 * How deep inside the liquid, in cells of the solver's level set, the mesher may fill in its
 * level set instead of splatting the markers there (surface/surfaceDeepKernels.ts): within the
 * 3 dx the solver redistances its phi to (liquidSolver.ts), and a node there lies at least 1.6
 * cells inside the solver's surface.
 */
export const SURFACE_INTERIOR_DEPTH = 2.5

/**
 * Adds the surface mesh of the frame's markers, as the cache, viewport and exporters take it.
 * phi: the solver's level set of the same markers at this frame (LiquidSolver.phi).
 */
function addSurface(fd: FrameData, c: LiquidCompiled, surfacer: LiquidSurfacer, transient: boolean, phi: Float32Array): FrameData {
  const ps = fd.particles[0]
  if (!c.surface.enabled || !ps) return fd
  const g = c.setup.grid
  fd.meshes.push(
    surfacer.surface({
      positions: ps.positions,
      count: ps.count,
      // About half the marker spacing (dx / cbrt(ppc)), as the mesher expects.
      particleRadius: (0.5 * g.dx) / Math.cbrt(c.setup.particlesPerCell),
      grid: { origin: [g.origin[0], g.origin[1], g.origin[2]], dx: g.dx, nx: g.nx, ny: g.ny, nz: g.nz },
      refinement: c.surface.refinement,
      smoothing: c.surface.smoothing,
      minDropVolume: c.surface.minDropVolume,
      interior: { phi, depth: SURFACE_INTERIOR_DEPTH * g.dx },
    }, transient),
  )
  return fd
}

function createLiquid(c: LiquidCompiled): Solver<LiquidSimInput> {
  const solver = new LiquidSolver(c.setup)
  // The mesher runs between steps, when the solver's pass scratch holds nothing.
  const surfacer = new LiquidSurfacer(c.setup.kernels, solver.passScratch)
  return {
    step: (dt, input, control) => solver.step(dt, input, control),
    frame: (opts) => addSurface(solver.frame(opts), c, surfacer, opts?.transient ?? false, solver.phi),
    checkpoint: () => solver.checkpoint(),
    restore: (bytes) => solver.restore(bytes),
    get time() {
      return solver.time
    },
  }
}

export const liquidFamily: SolverFamily<LiquidCompiled, LiquidSimInput> = {
  id: 'liquid',
  label: 'Liquid (free surface, viscosity, melting: Carlson 2004)',
  about: 'Liquid: marker particles with a FLIP/PIC blend, ghost-fluid free surface, implicit variable viscosity, heat and melting (Carlson 2004, chapters 3, 4 and 6).',
  hosts: ['domain'],
  reads: ['obstacle', 'emitter', 'heatSource', 'rigidBody'],
  params: { domain: LIQUID_DOMAIN_PARAMS, emitter: LIQUID_EMITTER_PARAMS },
  phases: LIQUID_PHASES,
  // The marker move runs on the WebAssembly kernels over the bake's threads (markerKernels.ts);
  // the other phases are still TypeScript on the bake thread.
  kernels: 'wasm',
  display: {
    controls: ['particleColor'],
    particleColors: [
      { attribute: 'velocity', label: 'Colour by speed' },
      { attribute: 'temperature', label: 'Colour by temperature' },
    ],
  },
  compileSetup: (doc, hostId, opts) => compileLiquidScene(doc, hostId, opts),
  compileInput: (doc, hostId, c, frame) => compileLiquidInput(doc, hostId, (frame - 1) / doc.meta.fps, doc.meta.fps, { meshes: c.meshes }),
  create: createLiquid,
  layout: (c) => `${c.setup.grid.nx}x${c.setup.grid.ny}x${c.setup.grid.nz} grid`,
  estimate: estimateLiquid,
  conformanceScene() {
    const { doc } = damBreakScene({ resolution: 12 })
    // With a rigid body dropping into the water (Carlson ch. 5), so the suite checks the
    // bodies' checkpoints, determinism and frames too.
    const box = sceneObject('conformance-box', 'rigidBody', 'Falling box', { shape: 'box', position: [-0.7, 1.35, 0], rotation: [20, 10, 0], scale: [0.3, 0.3, 0.3], relativeDensity: 2 })
    return { doc: { ...doc, objects: [...doc.objects, box], meta: { ...doc.meta, frameEnd: 6 } }, hostId: doc.objects.find((o) => o.kind === 'domain')!.id, meshes: [], badParam: { key: 'flip', value: 2 } }
  },
}
