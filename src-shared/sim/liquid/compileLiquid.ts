// Scene document -> liquid solver setup and per-time input (the liquid's half of compile.ts):
//   compileLiquidScene: the grid, the solver settings of the domain (liquidParams.ts), and the
//     initial volumes: liquid emitters whose behaviour is 'geometry' (a primitive, or a closed
//     imported mesh such as the bunny), read at the bake's first frame;
//   compileLiquidInput: the common input (obstacles, inflow emitters, clock, substeps) with
//     the keyframed heat sources and rigid body poses as its family payload.
import { EddyError } from '../../api/errors'
import type { PrimitiveShape } from '../../geometry/primitiveSdf'
import { evaluateObject } from '../../scene/keyframes'

import type { SceneDocument, SceneObject } from '../../scene/types'
import { type CompileOptions, compileCommonInput, domainGrid, domainSides, fail, findDomain, initialVolumeMesh, type InputOptions, isInitialVolume, MeshSdfCache, num, plainEmitter, str, vec, bool } from '../compile'
import { validateGridSpec } from '../core/grid'
import { compileRigidBodies, compileRigidPoses } from './compileRigid'
import { checkRigidPlacement } from './rigidInput'
import { type HeatSourceInput, LIQUID_BYTES_PER_CELL, type LiquidSetup, type LiquidSimInput, type LiquidTimeInput, type LiquidVolumeInit, validateLiquidSetup } from './liquidInput'

/** Settings of the surface mesh built from the markers each frame (liquidSurface.ts). */
export interface LiquidSurfaceSettings {
  enabled: boolean
  refinement: number
  smoothing: number
  /** Drops below this volume are removed, in simulation cells. */
  minDropVolume: number
}

export interface LiquidCompiled {
  setup: LiquidSetup
  surface: LiquidSurfaceSettings
  /** Mesh SDFs of mesh obstacles and mesh volumes, built once per bake. */
  meshes: MeshSdfCache
}

/**
 * Rough peak bytes per marker particle (position, velocity, temperature, id, scratch, and
 * APIC's 9-float C_p, 36 bytes, with the default velocity transfer).
 */
export const LIQUID_BYTES_PER_PARTICLE = 84

function initialVolume(doc: SceneDocument, obj: SceneObject, frame: number, meshes: MeshSdfCache, opts: CompileOptions): LiquidVolumeInit {
  const p = evaluateObject(obj, doc.tracks, frame)
  const shape = str(obj, p, 'shape') as PrimitiveShape | 'mesh'
  let mesh = null
  if (shape === 'mesh') mesh = initialVolumeMesh(obj, meshes, opts)
  return {
    id: obj.id,
    name: obj.name,
    shape,
    position: vec(obj, p, 'position'),
    rotation: vec(obj, p, 'rotation'),
    scale: vec(obj, p, 'scale'),
    mesh,
    temperature: num(obj, p, 'temperature'),
    velocity: vec(obj, p, 'velocity'),
  }
}

/** Static settings of a liquid bake, validated once (at the bake's first frame). */
export function compileLiquidScene(doc: SceneDocument, domainId: string, opts: CompileOptions = {}, frame = doc.meta.frameStart): LiquidCompiled {
  const domain = findDomain(doc, domainId)
  const p = evaluateObject(domain, doc.tracks, frame)
  const solver = str(domain, p, 'solver')
  if (solver !== 'liquid') fail(domain, 'solver', `Solver is "${solver}"; the liquid solver needs "liquid"`, solver)
  const resolution = num(domain, p, 'resolution')
  const grid = domainGrid(vec(domain, p, 'position'), vec(domain, p, 'size'), resolution)
  try {
    validateGridSpec(grid, opts.maxBytes, LIQUID_BYTES_PER_CELL)
  } catch (e) {
    if (e instanceof EddyError) fail(domain, 'resolution', `Resolution ${resolution} gives ${e.message}`, resolution)
    throw e
  }
  const tolerance = num(domain, p, 'liquidTolerance')
  const viscosity: LiquidSetup['viscosity'] =
    str(domain, p, 'viscosityModel') === 'temperature'
      ? {
          model: 'temperature',
          meltingPoint: num(domain, p, 'meltingPoint'),
          transitionWidth: num(domain, p, 'meltingWidth'),
          ramp: str(domain, p, 'meltingRamp') === 'quadratic' ? 'quadratic' : 'linear',
          solid: num(domain, p, 'solidViscosity'),
          liquid: num(domain, p, 'meltViscosity'),
        }
      : { model: 'constant', value: num(domain, p, 'viscosity') }
  const meshes = new MeshSdfCache(opts.resolveMesh)
  const volumes = doc.objects
    .filter((o) => o.kind === 'emitter' && isInitialVolume(o, evaluateObject(o, doc.tracks, frame)))
    .map((o) => initialVolume(doc, o, frame, meshes, opts))
  const setup: LiquidSetup = {
    domainId,
    domainName: domain.name,
    grid,
    sides: domainSides(domain, p),
    gravity: vec(domain, p, 'gravity'),
    transfer: str(domain, p, 'velocityTransfer') === 'apic' ? 'apic' : 'flip',
    flip: num(domain, p, 'flip'),
    particlesPerCell: num(domain, p, 'particlesPerCell'),
    jitter: 1,
    maxParticles: opts.maxParticles ?? 8_000_000,
    seed: num(domain, p, 'seed'),
    viscosity,
    viscousStress: str(domain, p, 'viscousStress') === 'full' ? 'full' : 'carlson',
    wallSlip: str(domain, p, 'wallSlip') === 'free' ? 'free' : 'no',
    heat: { diffusion: num(domain, p, 'heatDiffusion'), ambientTemperature: num(domain, p, 'ambientTemperature'), coolingRate: num(domain, p, 'coolingRate') },
    volumes,
    rigidBodies: compileRigidBodies(doc, frame, num(domain, p, 'timeScale') / doc.meta.fps, opts),
    pressure: { tolerance, maxIterations: 2000, preconditioner: opts.pressurePreconditioner ?? 'auto' },
    viscositySolve: { tolerance, maxIterations: 4000, preconditioner: opts.viscousPreconditioner ?? 'auto' },
    ...(opts.kernels ? { kernels: opts.kernels } : {}),
  }
  validateLiquidSetup(setup, opts.maxBytes)
  // Every object, every parameter, every mesh once, so errors surface before the bake; and
  // a rigid body starting inside an obstacle is refused here, before the cache is touched.
  const first = compileLiquidInput(doc, domainId, (frame - 1) / doc.meta.fps, doc.meta.fps, { meshes })
  if (setup.rigidBodies?.length) checkRigidPlacement(setup.rigidBodies, first.obstacles)
  return {
    setup,
    meshes,
    surface: {
      enabled: bool(domain, p, 'meshSurface'),
      refinement: num(domain, p, 'meshRefinement'),
      smoothing: num(domain, p, 'meshSmoothing'),
      minDropVolume: num(domain, p, 'minDropVolume'),
    },
  }
}

function compileHeatSource(obj: SceneObject, p: ReturnType<typeof evaluateObject>): HeatSourceInput {
  return {
    id: obj.id,
    name: obj.name,
    position: vec(obj, p, 'position'),
    radius: num(obj, p, 'radius'),
    temperature: num(obj, p, 'temperature'),
    rate: num(obj, p, 'rate'),
  }
}

/** Everything time dependent for the liquid solver at animation time `timeSeconds`. */
export function compileLiquidInput(doc: SceneDocument, domainId: string, timeSeconds: number, fps: number, opts: InputOptions = {}): LiquidSimInput {
  const input = compileCommonInput(doc, domainId, timeSeconds, fps, opts, { heatSources: [] as HeatSourceInput[] } as LiquidTimeInput, plainEmitter)
  for (const o of doc.objects) if (o.kind === 'heatSource') input.family.heatSources.push(compileHeatSource(o, evaluateObject(o, doc.tracks, input.frame)))
  if (doc.objects.some((o) => o.kind === 'rigidBody')) input.family.rigidPoses = compileRigidPoses(doc, input.frame, input.frameDt)
  return input
}

