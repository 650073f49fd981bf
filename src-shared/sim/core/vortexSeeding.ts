// Where vortex particles come from (Selle 2005, sec. 4 and 6): "we typically inject particles
// with random initial vorticity at a uniform rate at a source"; for the explosion of figure 2
// "particles are seeded with random position while directions are placed tangent to the
// cylinder centred at the source region's midpoint oriented upward". Vortex-seed objects
// place a blob of aligned particles once. All randomness comes from the solver's Prng, in
// input order, so runs and restored checkpoints draw the same particles.
// Shared by both gases (the grid smoke and the hybrid-mesh smoke), with the inputs they read.
import type { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { Vec3 } from '../../scene/types'
import type { Prng } from './prng'
import { particleKernel, selleKernel, type VortexParticles } from './vortexParticles'

export type VortexDirectionMode = 'random' | 'cylinder'

/** An emitter's vortex-particle seeding (its Vortex particles settings). */
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

/** A vortex-seed object at one time. */
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

/** Rejection-sampling tries before a point falls back to the shape's centre. */
const MAX_TRIES = 64

/**
 * E[xi(|x_p - c|)] for x_p uniform in the ball of radius R around c, with the particle's
 * smooth kernel xi of radius r (particleKernel): integral_0^min(R,r) xi(s) 3 s^2 / R^3 ds
 * (midpoint rule, 256 panels).
 */
export function meanKernelInBall(R: number, r: number): number {
  const top = Math.min(R, r)
  const n = 256
  const h = top / n
  let sum = 0
  for (let q = 0; q < n; q++) {
    const s = (q + 0.5) * h
    sum += particleKernel(s * s, r) * s * s
  }
  return (3 * sum * h) / (R * R * R)
}

/**
 * A vortex-seed object: particleCount particles uniform in its ball, all with omega_p along
 * its direction, sized so that the expected vorticity at the centre, sum_p xi_p omega_p
 * (Selle 2005, sec. 5), equals `strength`. r = kernel radius (m). Returns how many were added.
 */
export function seedVortexBall(particles: VortexParticles, prng: Prng, seed: VortexSeedInput, r: number): number {
  const { position: c, radius: R, direction: d } = seed
  const count = seed.particleCount
  const mean = meanKernelInBall(R, r)
  const mag = mean > 0 && count > 0 ? seed.strength / (count * mean) : 0
  let added = 0
  for (let n = 0; n < count; n++) {
    let x = 0, y = 0, z = 0
    do {
      x = prng.range(-1, 1)
      y = prng.range(-1, 1)
      z = prng.range(-1, 1)
    } while (x * x + y * y + z * z > 1)
    if (!particles.add(c[0] + R * x, c[1] + R * y, c[2] + R * z, mag * d[0], mag * d[1], mag * d[2], r)) break
    added++
  }
  return added
}

/**
 * `count` particles at random points inside an emitter (its SDF <= 0), each with peak
 * vorticity |omega~_p(x_p)| = xi_p(0) |omega_p| = strength (xi_p(0) = selleKernel(0, r), the
 * peak particleKernel shares with Selle's clamped Gaussian). Directions: random, or tangent to
 * the cylinder around the emitter's local Y axis (world up for an unrotated emitter) through
 * its centre: axis x (x_p - centre), normalised. scratch: 3 doubles.
 */
export function seedFromEmitter(
  particles: VortexParticles,
  prng: Prng,
  emitter: { position: Vec3; vortex: EmitterVortexInput },
  sdf: PrimitiveSdf,
  axis: ArrayLike<number>,
  count: number,
  r: number,
  scratch: Float64Array,
): number {
  const { min, max } = sdf.bounds
  const c = emitter.position
  const mag = emitter.vortex.strength / selleKernel(0, r)
  let added = 0
  for (let n = 0; n < count; n++) {
    let x = c[0], y = c[1], z = c[2]
    for (let t = 0; t < MAX_TRIES; t++) {
      const qx = prng.range(min[0], max[0]), qy = prng.range(min[1], max[1]), qz = prng.range(min[2], max[2])
      if (sdf.distance(qx, qy, qz) <= 0) {
        x = qx
        y = qy
        z = qz
        break
      }
    }
    let ox: number, oy: number, oz: number
    if (emitter.vortex.direction === 'random') {
      prng.unitVector(scratch)
      ox = scratch[0]
      oy = scratch[1]
      oz = scratch[2]
    } else {
      const rx = x - c[0], ry = y - c[1], rz = z - c[2]
      ox = axis[1] * rz - axis[2] * ry
      oy = axis[2] * rx - axis[0] * rz
      oz = axis[0] * ry - axis[1] * rx
      let len = Math.sqrt(ox * ox + oy * oy + oz * oz)
      if (len < 1e-12) {
        // On the axis the tangent is undefined: any direction perpendicular to the axis.
        prng.unitVector(scratch)
        ox = axis[1] * scratch[2] - axis[2] * scratch[1]
        oy = axis[2] * scratch[0] - axis[0] * scratch[2]
        oz = axis[0] * scratch[1] - axis[1] * scratch[0]
        len = Math.sqrt(ox * ox + oy * oy + oz * oz)
        if (len < 1e-12) continue
      }
      ox /= len
      oy /= len
      oz /= len
    }
    if (!particles.add(x, y, z, mag * ox, mag * oy, mag * oz, r)) break
    added++
  }
  return added
}
