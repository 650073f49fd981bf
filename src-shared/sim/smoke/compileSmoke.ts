// Scene document -> smoke solver setup and per-time input (the smoke's half of compile.ts):
//   compileSmokeScene: what is fixed for a bake (grid, boundary kinds, numerical choices), read
//                      at frame 1, validated once so a bad scene fails before any work;
//   compileSmokeInput: the common input (clock, substeps, obstacles, emitters) plus the smoke
//                      payload: buoyancy, dissipation, confinement, vortex particles and seeds.
import { EddyError } from '../../api/errors'
import { evaluateObject } from '../../scene/keyframes'
import type { ParamValue, SceneDocument, SceneObject } from '../../scene/types'
import type { AdvectionScheme } from '../core/advect'
import type { DomainSides } from '../core/boundaries'
import { type GridSpec, validateGridSpec } from '../core/grid'
import type { KernelBackend } from '../core/kernelBackend'
import type { PreconditionerKind } from '../core/pressure'
import { checkClock, type CompileOptions, compileCommonInput, compileEmitterVortex, compileGasForces, compileVortexSeed, domainGrid, domainSides, fail, findDomain, type InputOptions, MeshSdfCache, num, str, vec, bool } from '../compile'
import type { EmitterInput } from '../solver'
import type { SmokeEmitterInput, SmokePayload, SmokeSimInput } from './smokeInput'

export interface SmokeSetup {
  domainId: string
  domainName: string
  grid: GridSpec
  sides: DomainSides
  advection: AdvectionScheme
  /** The velocity's self-advection as advection-reflection (smokeSolver.ts reflectedAdvection). */
  reflection: boolean
  pressure: { preconditioner: PreconditionerKind; tolerance: number; maxIterations: number }
  vortexMode: 'force' | 'strength'
  seed: number
  maxParticles: number
  shared: boolean
  /** Kernel backend; undefined = TypeScript reference kernels. */
  kernels: KernelBackend | undefined
  meshes: MeshSdfCache
}

/** Rough bytes per cell of the smoke solver's fields (velocity x2, scalars x4, vorticity, pressure vectors, multigrid, fractions). */
export const SMOKE_BYTES_PER_CELL = 200

/** Static settings of a smoke bake; also validates every object once (at frame 1). */
export function compileSmokeScene(doc: SceneDocument, domainId: string, opts: CompileOptions = {}): SmokeSetup {
  const domain = findDomain(doc, domainId)
  const p = evaluateObject(domain, doc.tracks, 1)
  const solver = str(domain, p, 'solver')
  if (solver !== 'smoke') fail(domain, 'solver', `Solver is "${solver}"; the smoke solver needs "smoke"`, solver)
  const grid = domainGrid(vec(domain, p, 'position'), vec(domain, p, 'size'), num(domain, p, 'resolution'))
  try {
    validateGridSpec(grid, opts.maxBytes, SMOKE_BYTES_PER_CELL)
  } catch (e) {
    if (e instanceof EddyError) fail(domain, 'resolution', `Resolution ${num(domain, p, 'resolution')} gives ${e.message}`, p.resolution)
    throw e
  }
  const setup: SmokeSetup = {
    domainId,
    domainName: domain.name,
    grid,
    sides: domainSides(domain, p),
    advection: str(domain, p, 'advection') === 'semiLagrangian' ? 'semi-lagrangian' : 'maccormack',
    reflection: bool(domain, p, 'reflection'),
    pressure: { preconditioner: str(domain, p, 'pressureSolver') === 'mic0' ? 'mic0' : 'multigrid', tolerance: num(domain, p, 'pressureTolerance'), maxIterations: 1000 },
    vortexMode: str(domain, p, 'vortexMode') === 'strength' ? 'strength' : 'force',
    seed: num(domain, p, 'seed'),
    maxParticles: opts.maxParticles ?? 1_000_000,
    shared: opts.shared ?? false,
    kernels: opts.kernels,
    meshes: new MeshSdfCache(opts.resolveMesh),
  }
  // Every object, every parameter, every mesh once, so errors surface before the bake.
  compileSmokeInput(doc, domainId, 0, doc.meta.fps, { meshes: setup.meshes })
  return setup
}

function smokeEmitter(obj: SceneObject, p: Record<string, ParamValue>, base: EmitterInput): SmokeEmitterInput {
  return { ...base, vortex: compileEmitterVortex(obj, p) }
}

/** Everything time dependent for the smoke solver at animation time `timeSeconds`. */
export function compileSmokeInput(doc: SceneDocument, domainId: string, timeSeconds: number, fps: number, opts: InputOptions = {}): SmokeSimInput {
  checkClock(timeSeconds, fps)
  const domain = findDomain(doc, domainId)
  const frame = 1 + timeSeconds * fps
  const p = evaluateObject(domain, doc.tracks, frame)
  const family: SmokePayload = {
    ...compileGasForces(domain, p),
    maxRotation: (num(domain, p, 'maxRotation') * Math.PI) / 180,
    vortexParticles: {
      mode: str(domain, p, 'vortexMode') === 'strength' ? 'strength' : 'force',
      confinement: num(domain, p, 'vortexConfinement'),
      strengthWeight: num(domain, p, 'vortexStrengthWeight'),
      radiusCells: num(domain, p, 'vortexRadius'),
    },
    vortexSeeds: [],
  }
  const input = compileCommonInput(doc, domainId, timeSeconds, fps, opts, family, smokeEmitter)
  for (const obj of doc.objects) {
    if (obj.kind === 'vortexSeed') family.vortexSeeds.push(compileVortexSeed(obj, evaluateObject(obj, doc.tracks, frame)))
  }
  return input
}
