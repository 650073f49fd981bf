// The scene as a surface flow sees it. Fixed for a bake (read at its first frame): the cage's
// limit surface with the cage's scale applied (the metric depends on it), the patch atlas, the
// cells per patch and the mode. Per frame: the cage's rotation and position (the flow lives on
// the surface, so moving the cage carries the paint along), the forces in world axes, and the
// emitters that touch the surface with the colour they paint.
import { EddyError } from '../../api/errors'
import { buildLimitSurface, type LimitSurface } from '../../geometry/catmullClarkEval'
import { buildPatchAtlas, type PatchAtlas } from '../../geometry/patchAtlas'
import { eulerXYZDegToMatrix } from '../../geometry/primitiveSdf'
import { evaluateObject } from '../../scene/keyframes'
import { kindLabel } from '../../scene/specs'
import type { SceneDocument, SceneObject, Vec3 } from '../../scene/types'
import { checkClock, type CompileOptions, compileEmitter, fail, isInitialVolume, num, str, vec } from '../compile'
import type { KernelBackend } from '../core/kernelTypes'
import type { EmitterInput, SimInput } from '../solver'
import { validateCage } from '../../scene/validate'

export type SurfaceMode = 'fluid' | 'reactionDiffusion'

export interface SurfaceSetup {
  hostId: string
  name: string
  mode: SurfaceMode
  /** The limit surface of the cage scaled by the cage's Scale (local axes, metres). */
  surface: LimitSurface
  atlas: PatchAtlas
  /** Cells per patch edge. */
  N: number
  scale: Vec3
  /** Reaction-diffusion: random spots at the first frame and their seed. */
  patternSeeds: number
  seed: number
  /** The cage's pose and base colour at the first frame (the frame before any step shows them). */
  pose: { position: Vec3; rotation: Float64Array }
  baseColor: Vec3
  /** Where the solver's linear solves run (the bake's backend; TypeScript when absent). */
  kernels?: KernelBackend
}

export interface PaintEmitter extends EmitterInput {
  /** Linear RGB the emitter paints. */
  paintColor: Vec3
}

export interface SurfacePayload {
  mode: SurfaceMode
  /** Cage pose at this frame: world = position + R (scaled local); R row-major. */
  position: Vec3
  rotation: Float64Array
  gravity: Vec3
  spinAxis: Vec3
  /** rad/s. */
  spinRate: number
  vorticity: number
  drag: number
  colorDiffusion: number
  baseColor: Vec3
  feed: number
  kill: number
  diffusionU: number
  diffusionV: number
}

export type SurfaceInput = SimInput<SurfacePayload, PaintEmitter>

/** Reaction time a single reaction-diffusion step covers at most (its RK4 and splitting stay accurate). */
export const PATTERN_STEP = 1

export function findCage(doc: SceneDocument, hostId: string): SceneObject {
  const cage = doc.objects.find((o) => o.id === hostId)
  if (!cage) throw new EddyError('NOT_FOUND', `There is no Catmull-Clark surface with id ${hostId}`, { field: 'domainId', value: hostId })
  if (cage.kind !== 'ccCage') throw new EddyError('INVALID_PARAM', `"${cage.name}" is a ${kindLabel(cage.kind)}, not a Catmull-Clark surface`, { objectId: hostId, field: 'domainId' })
  return cage
}

/** What is fixed for a bake: the surface, its atlas, the grid size and the mode. */
export function compileSurfaceSetup(doc: SceneDocument, hostId: string, opts: CompileOptions = {}): SurfaceSetup {
  const cage = findCage(doc, hostId)
  const p = evaluateObject(cage, doc.tracks, doc.meta.frameStart)
  const geometry = cage.cage
  if (!geometry) fail(cage, 'cage', 'The surface has no cage geometry', null)
  const issues = validateCage(geometry)
  if (issues.length) fail(cage, 'cage', `The cage is not usable: ${issues[0].message}`, issues[0].path)
  const scale = vec(cage, p, 'scale')
  const positions = geometry.positions.map((x, i) => x * scale[i % 3])
  let surface: LimitSurface
  try {
    surface = buildLimitSurface({ positions, faces: geometry.faces })
  } catch (e) {
    // A sheet corner or similar: the evaluator names the vertex.
    fail(cage, 'cage', e instanceof Error ? e.message : String(e), null)
  }
  return {
    hostId,
    name: cage.name,
    mode: str(cage, p, 'flowMode') as SurfaceMode,
    surface,
    atlas: buildPatchAtlas(surface.faces),
    N: num(cage, p, 'cellsPerPatch'),
    scale,
    patternSeeds: num(cage, p, 'patternSeeds'),
    seed: num(cage, p, 'seed'),
    pose: { position: vec(cage, p, 'position'), rotation: eulerXYZDegToMatrix(vec(cage, p, 'rotation')) },
    baseColor: vec(cage, p, 'baseColor'),
    ...(opts.kernels ? { kernels: opts.kernels } : {}),
  }
}

/** Everything time dependent at animation frame `frame` (frame 1 is t = 0). */
export function compileSurfaceInput(doc: SceneDocument, hostId: string, setup: SurfaceSetup, frame: number): SurfaceInput {
  const { fps } = doc.meta
  checkClock((frame - 1) / fps, fps)
  const cage = findCage(doc, hostId)
  const p = evaluateObject(cage, doc.tracks, frame)
  const scale = vec(cage, p, 'scale')
  for (let a = 0; a < 3; a++) {
    if (Math.abs(scale[a] - setup.scale[a]) > 1e-9 * Math.max(1, Math.abs(setup.scale[a]))) {
      fail(cage, 'scale', `The surface's scale is fixed for a bake (its metric is built at the first frame): it changes from ${setup.scale.join(', ')} to ${scale.join(', ')} at frame ${frame}; animate position and rotation instead`, scale)
    }
  }
  const mode = setup.mode
  const pattern = mode === 'reactionDiffusion'
  // Reaction-diffusion runs on its own clock (reaction time units per second), stepped in units
  // of at most PATTERN_STEP; the flow on the animation clock with CFL substeps.
  const timeScale = pattern ? num(cage, p, 'patternSpeed') : num(cage, p, 'timeScale')
  const frameDt = timeScale / fps
  const minSubsteps = pattern ? Math.max(1, Math.ceil(frameDt / PATTERN_STEP - 1e-9)) : num(cage, p, 'minSubsteps')
  const maxSubsteps = pattern ? minSubsteps : num(cage, p, 'maxSubsteps')
  if (minSubsteps > maxSubsteps) fail(cage, 'minSubsteps', `Min substeps (${minSubsteps}) must not exceed Max substeps (${maxSubsteps})`, minSubsteps)
  const axis = vec(cage, p, 'spinAxis')
  const axisLength = Math.hypot(axis[0], axis[1], axis[2])
  const spinRate = (num(cage, p, 'spinRate') * Math.PI) / 180
  if (spinRate !== 0 && !(axisLength > 0)) fail(cage, 'spinAxis', 'The spin axis must not be zero while the spin rate is not', axis)
  const family: SurfacePayload = {
    mode,
    position: vec(cage, p, 'position'),
    rotation: eulerXYZDegToMatrix(vec(cage, p, 'rotation')),
    gravity: vec(cage, p, 'surfaceGravity'),
    spinAxis: axisLength > 0 ? [axis[0] / axisLength, axis[1] / axisLength, axis[2] / axisLength] : [0, 1, 0],
    spinRate,
    vorticity: num(cage, p, 'surfaceVorticity'),
    drag: num(cage, p, 'surfaceDrag'),
    colorDiffusion: num(cage, p, 'colorDiffusion'),
    baseColor: vec(cage, p, 'baseColor'),
    feed: num(cage, p, 'feedRate'),
    kill: num(cage, p, 'killRate'),
    diffusionU: num(cage, p, 'diffusionU'),
    diffusionV: num(cage, p, 'diffusionV'),
  }
  const input: SurfaceInput = {
    time: (frame - 1) / fps, frame, fps, timeScale, frameDt,
    cfl: pattern ? 1 : num(cage, p, 'cfl'), minSubsteps, maxSubsteps,
    obstacles: [], emitters: [], family,
  }
  for (const obj of doc.objects) {
    if (obj.kind !== 'emitter') continue
    const pe = evaluateObject(obj, doc.tracks, frame)
    if (isInitialVolume(obj, pe)) continue
    input.emitters.push({ ...compileEmitter(obj, pe), paintColor: vec(obj, pe, 'paintColor') })
  }
  return input
}
