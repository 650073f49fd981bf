// What is solid for the tetrahedral liquid at one time: the obstacles and the domain's closed
// walls as one signed distance (negative inside the solid), the region the liquid may occupy
// (inside the domain box and outside every obstacle, negative inside) and the solid's velocity
// at a point, which closed faces carry (seed 003 section 3.3.1: "liquid-obstacle faces with
// closed, non-slip boundary conditions"; a moving obstacle's faces move with it).
import { PlacedSdf } from '../../geometry/placedSdf'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { SignedDistanceField } from '../../geometry/signedDistance'
import type { DomainSides } from '../core/boundaries'
import type { ObstacleInput } from '../solver'
import type { ContourBox } from './contourGrid'

/** Per side (xMin, xMax, yMin, yMax, zMin, zMax): whether liquid may leave through it. */
export function openSides(sides: DomainSides): boolean[] {
  return [sides.xMin, sides.xMax, sides.yMin, sides.yMax, sides.zMin, sides.zMax].map((s) => s === 'open')
}

export class Solids {
  private readonly fields: SignedDistanceField[]
  private readonly closed: boolean[]
  /** Per side (xMin, xMax, yMin, yMax, zMin, zMax): whether liquid may leave through it. */
  readonly open: readonly boolean[]

  constructor(readonly box: ContourBox, sides: DomainSides, readonly obstacles: readonly ObstacleInput[]) {
    this.fields = obstacles.map((o) => {
      if (o.shape === 'mesh' && o.mesh) {
        const p = new PlacedSdf(o.mesh)
        p.place(o.position[0], o.position[1], o.position[2], o.rotation[0], o.rotation[1], o.rotation[2], o.scale[0], o.scale[1], o.scale[2])
        return p
      }
      return new PrimitiveSdf(o.shape === 'mesh' ? 'box' : o.shape, { position: o.position, rotation: o.rotation, scale: o.scale })
    })
    this.open = openSides(sides)
    this.closed = this.open.map((o) => !o)
  }

  /** Whether anything is solid (an obstacle or a closed wall). */
  get any(): boolean {
    return this.fields.length > 0 || this.closed.some((c) => c)
  }

  /** Distance to the solid, negative inside it: the obstacles and the closed walls (half-spaces beyond them). */
  solid = (x: number, y: number, z: number): number => {
    const { min, max } = this.box
    let d = Infinity
    const c = this.closed
    if (c[0]) d = Math.min(d, x - min[0])
    if (c[1]) d = Math.min(d, max[0] - x)
    if (c[2]) d = Math.min(d, y - min[1])
    if (c[3]) d = Math.min(d, max[1] - y)
    if (c[4]) d = Math.min(d, z - min[2])
    if (c[5]) d = Math.min(d, max[2] - z)
    for (const f of this.fields) d = Math.min(d, f.distance(x, y, z))
    return d
  }

  /**
   * Obstacle snapping (seed 003 section 3.3.1): every vertex within `reach` of a solid is moved
   * onto the nearest solid's surface by orthogonal projection (onto the nearest wall's plane, or
   * by Newton steps along that obstacle's own distance gradient) and flagged. Projecting onto
   * one component at a time, rather than onto the min of all of them, is what makes vertices in
   * corners where walls meet converge: the min's gradient there averages the walls' normals
   * and Newton only creeps towards the corner.
   */
  snap(positions: Float64Array, reach: number, tolerance: number): Uint8Array {
    const n = positions.length / 3
    const on = new Uint8Array(n)
    const { min, max } = this.box
    const c = this.closed
    const e = 1e-4 * reach
    for (let v = 0; v < n; v++) {
      let x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2]
      // The nearest component: a closed wall (0..5) or an obstacle (6 + i).
      let best = Infinity, which = -1
      const walls = [x - min[0], max[0] - x, y - min[1], max[1] - y, z - min[2], max[2] - z]
      for (let a = 0; a < 6; a++) if (c[a] && Math.abs(walls[a]) < best) { best = Math.abs(walls[a]); which = a }
      for (let i = 0; i < this.fields.length; i++) {
        const d = Math.abs(this.fields[i].distance(x, y, z))
        if (d < best) { best = d; which = 6 + i }
      }
      if (which < 0 || best > reach) continue
      if (which < 6) {
        const axis = which >> 1
        positions[3 * v + axis] = which & 1 ? max[axis] : min[axis]
        on[v] = 1
        continue
      }
      const f0 = this.fields[which - 6]
      let f = f0.distance(x, y, z)
      for (let it = 0; it < 8 && Math.abs(f) > tolerance; it++) {
        const gx = (f0.distance(x + e, y, z) - f0.distance(x - e, y, z)) / (2 * e)
        const gy = (f0.distance(x, y + e, z) - f0.distance(x, y - e, z)) / (2 * e)
        const gz = (f0.distance(x, y, z + e) - f0.distance(x, y, z - e)) / (2 * e)
        const g2 = gx * gx + gy * gy + gz * gz
        if (!(g2 > 0)) break
        x -= (f / g2) * gx
        y -= (f / g2) * gy
        z -= (f / g2) * gz
        f = f0.distance(x, y, z)
      }
      if (Math.abs(f) <= tolerance) {
        positions[3 * v] = x
        positions[3 * v + 1] = y
        positions[3 * v + 2] = z
        on[v] = 1
      }
    }
    return on
  }

  /** Whether there are obstacles (clear() is -Infinity everywhere without: callers skip it). */
  get hasObstacles(): boolean {
    return this.fields.length > 0
  }

  /** Outside every obstacle, negative there (-Infinity with no obstacles): the contouring clip. */
  clear = (x: number, y: number, z: number): number => {
    let d = -Infinity
    for (const f of this.fields) d = Math.max(d, -f.distance(x, y, z))
    return d
  }

  /** Where liquid may be, negative inside: inside the box (open sides included) and outside the obstacles. */
  room = (x: number, y: number, z: number): number => {
    const { min, max } = this.box
    let d = Math.max(min[0] - x, x - max[0], min[1] - y, y - max[1], min[2] - z, z - max[2])
    for (const f of this.fields) d = Math.max(d, -f.distance(x, y, z))
    return d
  }

  /** out[0..2] = the velocity of the solid nearest the point (0 for walls). */
  velocityAt(x: number, y: number, z: number, out: Float64Array): void {
    out[0] = out[1] = out[2] = 0
    let best = Infinity, which = -1
    for (let i = 0; i < this.fields.length; i++) {
      const d = Math.abs(this.fields[i].distance(x, y, z))
      if (d < best) {
        best = d
        which = i
      }
    }
    if (which < 0) return
    // A wall nearer than every obstacle: at rest.
    const { min, max } = this.box
    const c = this.closed
    const walls = [x - min[0], max[0] - x, y - min[1], max[1] - y, z - min[2], max[2] - z]
    for (let a = 0; a < 6; a++) if (c[a] && Math.abs(walls[a]) < best) return
    const o = this.obstacles[which]
    const w = o.angularVelocity, v = o.linearVelocity
    const rx = x - o.position[0], ry = y - o.position[1], rz = z - o.position[2]
    out[0] = v[0] + w[1] * rz - w[2] * ry
    out[1] = v[1] + w[2] * rx - w[0] * rz
    out[2] = v[2] + w[0] * ry - w[1] * rx
  }
}
