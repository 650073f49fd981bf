// What the smoke family (Selle 2005 vortex particles on a MAC grid) reads per step beyond the
// common SimInput: buoyancy, dissipation, grid vorticity confinement, the vortex-particle
// settings and seeds, and each emitter's vortex-particle seeding.
import type { Vec3 } from '../../scene/types'
import type { EmitterInput, SimInput } from '../solver'

import type { EmitterVortexInput, VortexSeedInput } from '../core/vortexSeeding'
export type { EmitterVortexInput, VortexDirectionMode, VortexSeedInput } from '../core/vortexSeeding'

export interface SmokeEmitterInput extends EmitterInput {
  vortex: EmitterVortexInput
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
