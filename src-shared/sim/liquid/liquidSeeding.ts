// Placing marker particles: initial liquid volumes and liquid emitters (Carlson 2004 sec.
// 3.2.3: the markers represent the liquid; the drip-sand scene of sec. 4.4 drops spheres of
// liquid where and when the user asks). Positions are jittered within the cell, stratified
// on an m x m x m sub-grid when ppc = m^3 (8 = 2^3 by default) so every part of the cell gets
// markers (Setup.jitter scales the offset within the sub-cell), uniformly otherwise; the jitter comes from the checkpointed PRNG, so seeding is
// deterministic and a restored bake seeds the same particles.
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import { sampleSdfGrid, type SignedDistanceField } from '../../geometry/signedDistance'
import type { GridSpec } from '../core/grid'
import type { Prng } from '../core/prng'
import { PlacedSdf } from '../../geometry/placedSdf'
import type { EmitterInput } from '../solver'
import type { LiquidVolumeInit } from './liquidInput'
import type { MarkerParticles } from './markers'
import { SOLID } from './viscosity'

/** The world-space SDF of an initial volume (a primitive, or the closed mesh placed by its transform). */
export function volumeSdf(v: LiquidVolumeInit): SignedDistanceField {
  if (v.shape === 'mesh') {
    const placed = new PlacedSdf(v.mesh as SignedDistanceField)
    placed.place(v.position[0], v.position[1], v.position[2], v.rotation[0], v.rotation[1], v.rotation[2], v.scale[0], v.scale[1], v.scale[2])
    return placed
  }
  return new PrimitiveSdf(v.shape, { position: v.position, rotation: v.rotation, scale: v.scale })
}

/**
 * Jittered position of sample s of ppc in cell (i, j, k) into out: with ppc = m^3, the centre
 * of sub-cell s moved by up to +-jitter/2 of the sub-cell (jitter 1 = anywhere in it).
 */
function samplePosition(spec: GridSpec, prng: Prng, ppc: number, m: number, jitter: number, i: number, j: number, k: number, s: number, out: Float64Array): void {
  const { dx, origin } = spec
  if (m * m * m === ppc) {
    const a = s % m, b = Math.floor(s / m) % m, c = Math.floor(s / (m * m))
    out[0] = origin[0] + (i + (a + 0.5 + jitter * (prng.next() - 0.5)) / m) * dx
    out[1] = origin[1] + (j + (b + 0.5 + jitter * (prng.next() - 0.5)) / m) * dx
    out[2] = origin[2] + (k + (c + 0.5 + jitter * (prng.next() - 0.5)) / m) * dx
  } else {
    out[0] = origin[0] + (i + prng.next()) * dx
    out[1] = origin[1] + (j + prng.next()) * dx
    out[2] = origin[2] + (k + prng.next()) * dx
  }
}

/**
 * Seeds ppc markers per cell wherever some volume's SDF is negative (the first such volume
 * gives temperature and velocity). Returns the number added (fewer at the particle cap).
 */
export function seedVolumes(p: MarkerParticles, prng: Prng, spec: GridSpec, ppc: number, jitter: number, volumes: readonly LiquidVolumeInit[]): number {
  if (volumes.length === 0) return 0
  const sdfs = volumes.map(volumeSdf)
  const { nx, ny, nz, dx, origin } = spec
  const cells = nx * ny * nz
  const m = Math.round(Math.cbrt(ppc))
  const pos = new Float64Array(3)
  const reach = 0.8660254037844386 * dx // half the cell diagonal
  // Each volume's distance at every cell centre, once: a cell is near a volume where it is
  // below reach, wholly inside below -reach. Sampled in a narrow band twice as wide (exact
  // within it, +-band with the true sign beyond, so both comparisons come out as with the exact
  // distance), row by row from the neighbouring sample (sampleSdfGrid): a mesh's closest-point
  // search then starts bounded and its sign needs no winding number away from the surface.
  const centres = new Float64Array(cells * volumes.length)
  for (let v = 0; v < sdfs.length; v++) sampleSdfGrid(sdfs[v], { nx, ny, nz, dx, origin }, centres.subarray(v * cells, (v + 1) * cells), { band: 2 * reach })
  // Room for every marker the cells near a volume can take, reserved at once: growing by
  // doubling would leave each outgrown copy behind in the WebAssembly kernels' memory,
  // which never frees (markers.ts).
  let nearCells = 0
  for (let c = 0; c < cells; c++) {
    for (let v = 0; v < sdfs.length; v++) {
      if (centres[v * cells + c] < reach) {
        nearCells++
        break
      }
    }
  }
  p.reserve(Math.min(p.maxCount, p.count + nearCells * ppc), true)
  // A marker in a cell the surface crosses needs only the side it is on: a band far below the
  // marker spacing prunes the closest-point search to the triangles around it.
  const sideBand = 1e-6 * dx
  let added = 0
  for (let k = 0, c = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        let near = false
        for (let v = 0; v < sdfs.length; v++) if (centres[v * cells + c] < reach) near = true
        if (!near) continue
        for (let s = 0; s < ppc; s++) {
          samplePosition(spec, prng, ppc, m, jitter, i, j, k, s, pos)
          for (let v = 0; v < sdfs.length; v++) {
            // Whole cell inside: no per-particle distance needed.
            const centre = centres[v * cells + c]
            const inside = centre < -reach || (centre < reach && isInside(sdfs[v], pos, sideBand, centre, origin[0] + (i + 0.5) * dx, origin[1] + (j + 0.5) * dx, origin[2] + (k + 0.5) * dx))
            if (!inside) continue
            const b = volumes[v]
            if (!p.add(pos[0], pos[1], pos[2], b.velocity[0], b.velocity[1], b.velocity[2], b.temperature)) return added
            added++
            break
          }
        }
      }
    }
  }
  return added
}

/**
 * distance < 0 at `pos`, given the field's value `centre` at (cx, cy, cz): from distanceFrom where
 * the field has it (on a closed mesh, a marker nearer the centre than the surface is takes the
 * centre's side with no winding number), else from a banded query (its sign is exact at any band).
 */
function isInside(sdf: SignedDistanceField, pos: Float64Array, band: number, centre: number, cx: number, cy: number, cz: number): boolean {
  const x = pos[0], y = pos[1], z = pos[2]
  if (sdf.distanceFrom) return sdf.distanceFrom(x, y, z, band, centre, Math.hypot(x - cx, y - cy, z - cz)) < 0
  return (sdf.distanceBanded ? sdf.distanceBanded(x, y, z, band) : sdf.distance(x, y, z)) < 0
}

/** Per-emitter state: its SDF for the current input, rebuilt when the transform changes. */
export class LiquidEmitter {
  sdf: PrimitiveSdf
  private key = ''
  private readonly pos = new Float64Array(3)

  constructor(e: EmitterInput) {
    this.sdf = new PrimitiveSdf(e.shape, { position: e.position, rotation: e.rotation, scale: e.scale })
    this.key = LiquidEmitter.keyOf(e)
  }

  static keyOf(e: EmitterInput): string {
    return `${e.shape}|${e.position.join(',')}|${e.rotation.join(',')}|${e.scale.join(',')}`
  }

  /** Follows the input's transform (keyframed emitters move). */
  update(e: EmitterInput): void {
    const key = LiquidEmitter.keyOf(e)
    if (key === this.key) return
    this.sdf = new PrimitiveSdf(e.shape, { position: e.position, rotation: e.rotation, scale: e.scale })
    this.key = key
  }

  /**
   * One substep of emission: every non-solid cell whose centre is inside the shape and that
   * holds fewer than ppc/2 markers is refilled with probability `blend` (1 - exp(-rate h)),
   * with ppc jittered markers inside the shape; markers already inside take the inflow
   * velocity (the emitter pushes). Returns the number of markers added.
   */
  emit(p: MarkerParticles, prng: Prng, spec: GridSpec, ppc: number, jitter: number, count: Int32Array, kind: Uint8Array, blend: number, e: EmitterInput): number {
    const { nx, ny, nz, dx, origin } = spec
    const { min, max } = this.sdf.bounds
    const [ux, uy, uz] = e.velocity
    // Markers inside push with the inflow.
    for (let q = 0; q < p.count; q++) {
      const x = p.px[q], y = p.py[q], z = p.pz[q]
      if (x < min[0] || y < min[1] || z < min[2] || x > max[0] || y > max[1] || z > max[2]) continue
      if (this.sdf.distance(x, y, z) < 0) {
        p.vx[q] = ux
        p.vy[q] = uy
        p.vz[q] = uz
        p.temp[q] = e.temperature
      }
    }
    const i0 = Math.max(0, Math.floor((min[0] - origin[0]) / dx)), i1 = Math.min(nx - 1, Math.floor((max[0] - origin[0]) / dx))
    const j0 = Math.max(0, Math.floor((min[1] - origin[1]) / dx)), j1 = Math.min(ny - 1, Math.floor((max[1] - origin[1]) / dx))
    const k0 = Math.max(0, Math.floor((min[2] - origin[2]) / dx)), k1 = Math.min(nz - 1, Math.floor((max[2] - origin[2]) / dx))
    const m = Math.round(Math.cbrt(ppc))
    const pos = this.pos
    let added = 0
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const c = i + nx * (j + ny * k)
          if (kind[c] === SOLID || 2 * count[c] >= ppc) continue
          if (this.sdf.distance(origin[0] + (i + 0.5) * dx, origin[1] + (j + 0.5) * dx, origin[2] + (k + 0.5) * dx) >= 0) continue
          if (!(prng.next() < blend)) continue
          for (let s = 0; s < ppc; s++) {
            samplePosition(spec, prng, ppc, m, jitter, i, j, k, s, pos)
            if (this.sdf.distance(pos[0], pos[1], pos[2]) >= 0) continue
            if (!p.add(pos[0], pos[1], pos[2], ux, uy, uz, e.temperature)) return added
            added++
            count[c]++
          }
        }
      }
    }
    return added
  }
}
