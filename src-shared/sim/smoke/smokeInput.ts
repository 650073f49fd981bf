// What the smoke family (Selle 2005 vortex particles on a MAC grid) reads per step beyond the
// common SimInput: buoyancy, dissipation, grid vorticity confinement, the vortex-particle
// settings and seeds, and each emitter's vortex-particle seeding.
import type { Vec3 } from '../../scene/types'
import type { EmitterInput, SimInput } from '../solver'

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

export interface SmokeEmitterInput extends EmitterInput {
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

export interface SmokePayload {
  /** Grid vorticity confinement strength epsilon (Fedkiw, Stam, Jensen 2001). */
  vorticity: number
  /** Largest angle (radians) the flow may turn its velocity through per substep; 0 = no limit. */
  maxRotation: number
  buoyancy: { alpha: number; beta: number; ambientTemperature: number }
  /** Exponential decay rates, 1/s: density to 0, temperature to ambient. */
  dissipation: { density: number; temperature: number }
  vortexParticles: {
    /** 'force': per-particle confinement force (Selle 2005, sec. 5); 'strength': particle |omega| sets a spatially varying epsilon. */
    mode: VortexParticleMode
    /**
     * 'force' mode, 1/s: F_p = eps_p grad xi_p x omega_p with eps_p = confinement r_p^2 / 6
     * (Selle 2005's F_p = eps (N_p x omega~_p), regularised; particleForceSlab).
     */
    confinement: number
    /** 'strength' mode: epsilon(x) += strengthWeight * tent-splatted particle peak vorticity (s). */
    strengthWeight: number
    /** Kernel radius of particles seeded by vortex-seed objects, cells. */
    radiusCells: number
  }
  vortexSeeds: VortexSeedInput[]
}

export type SmokeSimInput = SimInput<SmokePayload, SmokeEmitterInput>
