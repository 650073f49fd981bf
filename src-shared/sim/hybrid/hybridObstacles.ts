// The obstacles as the hybrid mesh sees them at one instant: one signed distance (the union,
// negative inside), each obstacle's rigid velocity for the no-through condition on its closed
// faces (seed 000 section 3.4: a closed face keeps the solid's normal velocity), and a key of
// their placements, so the solver knows when the band must be remeshed (a keyframed obstacle
// moved) and can rebuild the same mesh after a restore.
import { PlacedSdf } from '../../geometry/placedSdf'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { ObstacleInput } from '../solver'

/** Position, rotation (XYZ degrees) and scale of one obstacle: 9 numbers. */
export type Placement = number[]

export class HybridObstacles {
  private readonly fields: SignedDistanceField[]
  /** Placements, 9 numbers per obstacle, in input order. */
  readonly placements: Placement[]

  /**
   * The obstacles placed `offset` simulated seconds into the frame (transform rates carry them
   * between frames), or at the given placements (restore) when present for an id.
   */
  constructor(readonly obstacles: readonly ObstacleInput[], offset: number, fixed?: ReadonlyMap<string, Placement>) {
    this.placements = obstacles.map((o) => {
      const f = fixed?.get(o.id)
      if (f) return f.slice()
      const at = (v: number[], r: number[]) => [v[0] + r[0] * offset, v[1] + r[1] * offset, v[2] + r[2] * offset]
      return [...at(o.position, o.positionRate), ...at(o.rotation, o.rotationRate), ...at(o.scale, o.scaleRate)]
    })
    this.fields = obstacles.map((o, i) => {
      const q = this.placements[i]
      if (o.shape === 'mesh' && o.mesh) {
        const p = new PlacedSdf(o.mesh)
        p.place(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8])
        return p
      }
      return new PrimitiveSdf(o.shape === 'mesh' ? 'box' : o.shape, { position: [q[0], q[1], q[2]], rotation: [q[3], q[4], q[5]], scale: [q[6], q[7], q[8]] })
    })
  }

  get count(): number {
    return this.fields.length
  }

  /** Union distance, negative inside any obstacle; null without obstacles. */
  field(): ((x: number, y: number, z: number) => number) | null {
    if (this.fields.length === 0) return null
    const fields = this.fields
    return (x, y, z) => {
      let d = Infinity
      for (let i = 0; i < fields.length; i++) {
        const v = fields[i].distance(x, y, z)
        if (v < d) d = v
      }
      return d
    }
  }

  /** The nearest obstacle's rigid velocity at (x, y, z) into out[0..2]: v + omega x (x - centre). */
  /** Whether every obstacle is at rest (no linear or angular velocity): velocityAt is then 0 everywhere. */
  get atRest(): boolean {
    return this.obstacles.every((o) => [...o.linearVelocity, ...o.angularVelocity].every((r) => r === 0))
  }

  velocityAt(x: number, y: number, z: number, out: Float64Array): void {
    out[0] = 0; out[1] = 0; out[2] = 0
    let best = Infinity, which = -1
    for (let i = 0; i < this.fields.length; i++) {
      const d = Math.abs(this.fields[i].distance(x, y, z))
      if (d < best) { best = d; which = i }
    }
    if (which < 0) return
    const o = this.obstacles[which], q = this.placements[which]
    const rx = x - q[0], ry = y - q[1], rz = z - q[2]
    const w = o.angularVelocity, v = o.linearVelocity
    out[0] = v[0] + w[1] * rz - w[2] * ry
    out[1] = v[1] + w[2] * rx - w[0] * rz
    out[2] = v[2] + w[0] * ry - w[1] * rx
  }

  /** Whether any obstacle moves (a non-zero transform rate): then the band follows it. */
  get moving(): boolean {
    return this.obstacles.some((o) => [...o.positionRate, ...o.rotationRate, ...o.scaleRate].some((r) => r !== 0))
  }

  /** Same obstacles at the same placements (bit for bit)? */
  samePlacement(other: HybridObstacles): boolean {
    if (other.placements.length !== this.placements.length) return false
    for (let i = 0; i < this.placements.length; i++) {
      if (this.obstacles[i].id !== other.obstacles[i].id) return false
      const a = this.placements[i], b = other.placements[i]
      for (let k = 0; k < 9; k++) if (a[k] !== b[k]) return false
    }
    return true
  }
}
