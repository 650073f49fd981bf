// The contract between the bake loop and every solver (DESIGN.md, "Core interfaces"), and
// SimInput: everything time dependent in the scene, evaluated by compile.ts at one time t.
// Keyframes are never baked into the document; the bake loop asks compileInput for each
// frame and hands the result to step().
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
  /** Wall-clock milliseconds per phase, summed over the substeps (not deterministic). */
  ms: Record<'advection' | 'forces' | 'vortexParticles' | 'projection', number>
  /** Largest max|u| * h / dx over the substeps (cells travelled per substep). */
  cflMax: number
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

export interface Solver {
  /** Advances the state by dt simulated seconds (split into CFL substeps) under `input`. */
  step(dt: number, input: SimInput, control?: StepControl): StepStats
  /** The current state; arrays are copies. */
  frame(): FrameData
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

export type VortexDirectionMode = 'random' | 'cylinder'

export interface EmitterVortexInput {
  /** Vortex particles seeded per simulated second (0 = none). */
  rate: number
  /** Peak vorticity of each particle's field, 1/s. */
  strength: number
  /** Kernel radius in cells. */
  radiusCells: number
  /** Random directions, or tangent to an upright cylinder around the source (Selle 2005, sec. 6). */
  direction: VortexDirectionMode
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
  vortex: EmitterVortexInput
}

export interface VortexSeedInput {
  id: string
  name: string
  position: Vec3
  /** Radius of the ball the particles are sampled in, m. */
  radius: number
  /** Unit spin axis. */
  direction: Vec3
  /** Vorticity at the seed's centre, 1/s (expected value over the random sampling). */
  strength: number
  particleCount: number
}

export type VortexParticleMode = 'force' | 'strength'

export interface SimInput {
  /** Animation time this input was evaluated at, s (frame = 1 + time * fps). */
  time: number
  frame: number
  fps: number
  /** Simulated seconds per animation second. */
  timeScale: number
  /** Simulated seconds per frame: timeScale / fps. */
  frameDt: number
  cfl: number
  minSubsteps: number
  maxSubsteps: number
  /** Grid vorticity confinement strength epsilon (Fedkiw, Stam, Jensen 2001). */
  vorticity: number
  buoyancy: { alpha: number; beta: number; ambientTemperature: number }
  /** Exponential decay rates, 1/s: density to 0, temperature to ambient. */
  dissipation: { density: number; temperature: number }
  vortexParticles: {
    /** 'force': per-particle confinement force (Selle 2005, sec. 5); 'strength': particle |omega| sets a spatially varying epsilon. */
    mode: VortexParticleMode
    /** 'force' mode: epsilon_p = confinement * dx in F_p = epsilon_p (N_p x omega~_p). */
    confinement: number
    /** 'strength' mode: epsilon(x) += strengthWeight * tent-splatted particle peak vorticity (s). */
    strengthWeight: number
    /** Kernel radius of particles seeded by vortex-seed objects, cells. */
    radiusCells: number
  }
  obstacles: ObstacleInput[]
  emitters: EmitterInput[]
  vortexSeeds: VortexSeedInput[]
}
