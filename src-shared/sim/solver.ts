// The contract between the bake loop and every solver (DESIGN.md, "Core interfaces"), and
// SimInput: everything time dependent in the scene, evaluated at one time t. Its common part
// (clock, CFL and substep limits, obstacles, emitters) is compiled by compile.ts for every
// family; `family` carries what only one family reads (the smoke's buoyancy and vortex
// particles, the liquid's heat sources). Keyframes are never baked into the document; the
// bake loop asks the family's compileInput for each frame and hands the result to step().
import { EddyError } from '../api/errors'
import type { SignedDistanceField } from '../geometry/signedDistance'
import type { PrimitiveShape } from '../geometry/primitiveSdf'
import type { Vec3 } from '../scene/types'
import type { FrameData } from './frame'

export interface StepStats {
  substeps: number
  /** PCG iterations summed over the substeps. */
  pressureIterations: number
  /** Largest final relative residual of the substeps' pressure solves. */
  pressureResidual: number
  particleCount: number
  /**
   * Wall-clock milliseconds per named phase of the solver's family (SolverFamily.phases),
   * summed over the substeps (not deterministic).
   */
  ms: Record<string, number>
  /** Largest max|u| * h / dx over the substeps (cells travelled per substep). */
  cflMax: number
}

/** Phase timings as FrameData stats: { advection: 3 } -> { msAdvection: 3 }. */
export function phaseStats(ms: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const k of Object.keys(ms)) out[`ms${k[0].toUpperCase()}${k.slice(1)}`] = ms[k]
  return out
}

/** Stats of no step yet, with every phase of `phases` at 0 ms. */
export function emptyStepStats(phases: readonly string[]): StepStats {
  const ms: Record<string, number> = {}
  for (const p of phases) ms[p] = 0
  return { substeps: 0, pressureIterations: 0, pressureResidual: 0, particleCount: 0, ms, cflMax: 0 }
}

/**
 * Lets a caller stop a step between substeps (a bake's Cancel). When shouldStop() answers
 * true the solver throws EddyError('CANCELLED') before the next substep; the state is then
 * part-way through a frame and only good for discarding (resume uses checkpoints).
 */
export interface StepControl {
  shouldStop(): boolean
}

/** The error a solver throws when StepControl.shouldStop() stops it at simulated time t. */
export function cancelledError(t: number): EddyError {
  return new EddyError('CANCELLED', `Cancelled at t=${t.toFixed(4)} s, between substeps`, { time: t })
}

export interface FrameOptions {
  /**
   * The caller reads the frame before its next call of the solver and keeps none of it (the bake
   * runner encodes each frame before it steps again): the arrays may then be the solver's own,
   * reused frame after frame. A fresh array's first writes cost a page fault per 4 KiB (about
   * 3 ms a MB on the CI machine), more than the copy itself at a million markers. Default false:
   * every array is a copy the caller owns.
   */
  transient?: boolean
}

export interface Solver<Input extends SimInput = SimInput> {
  /** Advances the state by dt simulated seconds (split into CFL substeps) under `input`. */
  step(dt: number, input: Input, control?: StepControl): StepStats
  /** The current state; arrays are copies unless opts.transient. */
  frame(opts?: FrameOptions): FrameData
  /** All state needed to continue bit for bit. */
  checkpoint(): Uint8Array
  restore(bytes: Uint8Array): void
  /** Simulated seconds so far. */
  readonly time: number
}

export type ObstacleShape = PrimitiveShape | 'mesh'

export interface ObstacleInput {
  id: string
  name: string
  shape: ObstacleShape
  /** Transform at the input's time (world = position + R(rotation) * (scale .* local)). */
  position: Vec3
  /** XYZ Euler degrees. */
  rotation: Vec3
  scale: Vec3
  /**
   * Rates of the transform channels per simulated second, from a finite difference of the
   * keyframed transform over one frame: they move the shape between substeps.
   */
  positionRate: Vec3
  rotationRate: Vec3
  scaleRate: Vec3
  /** Rigid velocity for the boundary condition: linear (m/s) and angular (rad/s, world). */
  linearVelocity: Vec3
  angularVelocity: Vec3
  /** Shape 'mesh': the mesh's signed distance in its local (untransformed) space. */
  mesh: SignedDistanceField | null
  meshId: string | null
}

export interface EmitterInput {
  id: string
  name: string
  shape: PrimitiveShape
  position: Vec3
  rotation: Vec3
  scale: Vec3
  fluid: 'gas' | 'liquid'
  /** Smoke density of emitted fluid. */
  density: number
  /** Temperature of emitted fluid, K. */
  temperature: number
  /** Velocity of emitted fluid, m/s. */
  velocity: Vec3
  /** Refills per simulated second: each substep h blends by 1 - exp(-rate h). */
  rate: number
}

/** When a step is: the animation clock. */
export interface SimClock {
  /** Animation time this input was evaluated at, s (frame = 1 + time * fps). */
  time: number
  frame: number
  fps: number
  /** Simulated seconds per animation second. */
  timeScale: number
  /** Simulated seconds per frame: timeScale / fps. */
  frameDt: number
}

/** How a frame is split into substeps (substeps.ts). */
export interface SubstepLimits {
  /** Largest distance, in cells, the fluid may travel in one substep. */
  cfl: number
  minSubsteps: number
  maxSubsteps: number
}

/** The common part every family gets, and the family's own payload. */
export interface SimInput<Payload = unknown, Emitter extends EmitterInput = EmitterInput> extends SimClock, SubstepLimits {
  obstacles: ObstacleInput[]
  emitters: Emitter[]
  family: Payload
}
