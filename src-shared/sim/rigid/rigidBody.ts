// One rigid body: its description (what the scene says), its constant mass properties and
// shape, and its state (centre of mass, orientation, linear and angular velocity, world axes).
// The state lives in small Float64Arrays that the solver updates in place and the fluid
// coupling reads (and, for wet bodies, writes: Carlson 2004, eqs. 77-78 give the velocities
// of a body touched by liquid).
import { EddyError } from '../../api/errors'
import type { TriMesh } from '../../geometry/triMesh'
import { invertSym3, quatToMatrix, rotateTensor } from './rigidMath'
import { RigidShape, type RigidShapeKind, type RigidShapeOptions, type SdfGrid } from './rigidShape'

export interface RigidBodyDesc {
  /** The scene object's id (stable across frames). */
  id: string
  name: string
  shape: RigidShapeKind
  /** Primitives: per-axis scale of the unit shape (box 1 m, sphere and cylinder diameter 1 m, cylinder height 1 m along local Y). */
  scale?: ArrayLike<number>
  /** 'mesh': a closed triangle mesh in object-local coordinates, already scaled, m. */
  mesh?: TriMesh
  /** kg/m^3, > 0. */
  density: number
  /** World position of the object's origin (not the centre of mass), m. */
  position: ArrayLike<number>
  /** Unit quaternion x, y, z, w rotating object axes into world axes (normalised here). */
  orientation: ArrayLike<number>
  /** m/s of the centre of mass, world axes; default 0. */
  linearVelocity?: ArrayLike<number>
  /** rad/s, world axes; default 0. */
  angularVelocity?: ArrayLike<number>
  /** Coefficient of restitution, 0..1. */
  restitution: number
  /** Coulomb friction coefficient, >= 0. */
  friction: number
  /**
   * Moved by the caller (keyframes): infinite mass in collisions; the caller sets its pose
   * (setPose) and velocities before each step, and step() advances it by them.
   */
  kinematic?: boolean
  /** Shape resolution options (mesh distance grid). */
  shapeOptions?: RigidShapeOptions
}

function fail(desc: { id?: string; name?: string }, field: string, message: string, value: unknown): never {
  throw new EddyError('INVALID_PARAM', `Rigid body "${desc.name ?? desc.id ?? '?'}": ${message}`, { objectId: desc.id, field, value })
}

function vec3(desc: RigidBodyDesc, field: string, v: ArrayLike<number> | undefined, fallback: number[] | null): number[] {
  if (v === undefined && fallback) return fallback
  if (!v || v.length < 3 || !Number.isFinite(v[0]) || !Number.isFinite(v[1]) || !Number.isFinite(v[2])) {
    fail(desc, field, `${field} must be 3 finite numbers`, v)
  }
  return [v[0], v[1], v[2]]
}

export class RigidBody {
  /** Index in the world's body list. */
  readonly index: number
  readonly id: string
  readonly name: string
  readonly shape: RigidShape
  /** kg/m^3. */
  readonly density: number
  /** kg (that of its volume even when kinematic, for the fluid coupling). */
  readonly mass: number
  readonly restitution: number
  readonly friction: number
  /** Inertia tensor about the centre of mass, body axes, row-major 3x3, kg m^2. */
  readonly inertiaBody: Float64Array
  private kin: boolean
  private readonly invMassDynamic: number
  private readonly invInertiaDynamic: Float64Array
  private readonly zero9 = new Float64Array(9)
  /** Centre of mass, world, m. */
  readonly x = new Float64Array(3)
  /** Orientation x, y, z, w (body axes -> world axes). */
  readonly q = new Float64Array(4)
  /** Linear velocity of the centre of mass, world, m/s. */
  readonly v = new Float64Array(3)
  /** Angular velocity, world, rad/s. */
  readonly w = new Float64Array(3)
  /** Largest distance from the centre of mass to the surface, m. */
  readonly boundingRadius: number
  /**
   * Over the last step, collision and contact impulses turned into accelerations (Carlson
   * 2004, eqs. 68-69, with his impulse / dt "impulse forces"): sum_j J_j / (M dt), m/s^2 ...
   */
  readonly collisionAccel = new Float64Array(3)
  /** ... and I^-1 sum_j (p_j - x) x J_j / dt, rad/s^2 (world). Zero for kinematic bodies. */
  readonly collisionAngularAccel = new Float64Array(3)
  // Rotation matrix of q, recomputed when q changes (the caller may write q).
  private readonly rot = new Float64Array(9)
  private readonly rotQ = Float64Array.of(NaN, NaN, NaN, NaN)

  constructor(desc: RigidBodyDesc, index: number) {
    if (!desc || typeof desc !== 'object') throw new EddyError('INVALID_PARAM', `Rigid body ${index + 1}: missing description`)
    if (typeof desc.id !== 'string' || typeof desc.name !== 'string') fail(desc, 'id', 'id and name must be strings', desc.id)
    this.index = index
    this.id = desc.id
    this.name = desc.name
    this.kin = desc.kinematic === true
    const e = desc.restitution, mu = desc.friction
    if (!(e >= 0 && e <= 1)) fail(desc, 'restitution', `restitution must be between 0 and 1, got ${e}`, e)
    if (!(mu >= 0) || !Number.isFinite(mu)) fail(desc, 'friction', `friction must be a finite number >= 0, got ${mu}`, mu)
    this.restitution = e
    this.friction = mu
    const position = vec3(desc, 'position', desc.position, null)
    const v = vec3(desc, 'linearVelocity', desc.linearVelocity, [0, 0, 0])
    const w = vec3(desc, 'angularVelocity', desc.angularVelocity, [0, 0, 0])
    const q = desc.orientation
    if (!q || q.length < 4 || ![0, 1, 2, 3].every((i) => Number.isFinite(q[i]))) fail(desc, 'orientation', 'orientation must be a quaternion of 4 finite numbers (x, y, z, w)', q)
    const ql = Math.hypot(q[0], q[1], q[2], q[3])
    if (!(ql > 1e-9)) fail(desc, 'orientation', 'orientation quaternion has zero length', q)
    this.shape = new RigidShape(desc.shape, desc.scale ?? null, desc.mesh ?? null, desc.density, desc, desc.shapeOptions)
    const mp = this.shape.massProperties
    this.density = desc.density
    this.mass = mp.mass
    this.invMassDynamic = 1 / mp.mass
    this.inertiaBody = Float64Array.from(mp.inertia)
    this.invInertiaDynamic = invertSym3(this.inertiaBody, new Float64Array(9))
    this.boundingRadius = this.shape.boundingRadius
    for (let i = 0; i < 4; i++) this.q[i] = q[i] / ql
    this.setPose(position, this.q)
    this.v.set(v)
    this.w.set(w)
  }

  /**
   * Moved by the caller (infinite mass in collisions, no gravity) rather than simulated. May
   * be switched, e.g. when a keyed body becomes simulated at its activation frame; the
   * next step() takes the change into account.
   */
  get kinematic(): boolean {
    return this.kin
  }
  set kinematic(k: boolean) {
    this.kin = k === true
  }

  /** 1 / mass, or 0 for a kinematic body (infinite mass in collisions). */
  get invMass(): number {
    return this.kin ? 0 : this.invMassDynamic
  }

  /** Inverse inertia tensor, body axes, or zeros for a kinematic body. */
  get invInertiaBody(): Float64Array {
    return this.kin ? this.zero9 : this.invInertiaDynamic
  }

  /** Rotation matrix (body -> world, row-major) of the current q. */
  rotation(): Float64Array {
    const q = this.q, c = this.rotQ
    if (q[0] !== c[0] || q[1] !== c[1] || q[2] !== c[2] || q[3] !== c[3]) {
      quatToMatrix(q, 0, this.rot)
      c.set(q)
    }
    return this.rot
  }

  /**
   * Places the body from its object pose: `origin` is the world position of the object's
   * origin, `q` its orientation (normalised here); the centre of mass goes to origin + R com.
   */
  setPose(origin: ArrayLike<number>, q: ArrayLike<number>): void {
    const l = Math.hypot(q[0], q[1], q[2], q[3])
    this.q[0] = q[0] / l; this.q[1] = q[1] / l; this.q[2] = q[2] / l; this.q[3] = q[3] / l
    const r = this.rotation(), c = this.shape.comOffset
    this.x[0] = origin[0] + r[0] * c[0] + r[1] * c[1] + r[2] * c[2]
    this.x[1] = origin[1] + r[3] * c[0] + r[4] * c[1] + r[5] * c[2]
    this.x[2] = origin[2] + r[6] * c[0] + r[7] * c[1] + r[8] * c[2]
  }

  /** World position of the object's origin (x - R com), into out. */
  originPosition(out: Float64Array = new Float64Array(3)): Float64Array {
    const r = this.rotation(), c = this.shape.comOffset
    out[0] = this.x[0] - (r[0] * c[0] + r[1] * c[1] + r[2] * c[2])
    out[1] = this.x[1] - (r[3] * c[0] + r[4] * c[1] + r[5] * c[2])
    out[2] = this.x[2] - (r[6] * c[0] + r[7] * c[1] + r[8] * c[2])
    return out
  }

  /** The shape's distance grid when it is a mesh, else null (meshBodyKernels.ts samples it). */
  get meshGrid(): SdfGrid | null {
    return this.shape.meshGrid
  }

  /** World signed distance to the body's surface, negative inside, m. */
  phi(x: number, y: number, z: number): number {
    const r = this.rotation()
    const px = x - this.x[0], py = y - this.x[1], pz = z - this.x[2]
    // Quick exit beyond the bounding sphere: the distance is at least |p| - radius > 0.
    const d2 = px * px + py * py + pz * pz
    const rb = this.boundingRadius
    if (d2 > 4 * rb * rb) return Math.sqrt(d2) - rb
    // body = R^T (p - x)
    return this.shape.phi(r[0] * px + r[3] * py + r[6] * pz, r[1] * px + r[4] * py + r[7] * pz, r[2] * px + r[5] * py + r[8] * pz)
  }

  /**
   * Outward unit normal of the body's surface nearest world point (x, y, z), into out[0..2]
   * (the gradient of the body's signed distance, RigidShape.phiGrad, turned into world axes).
   */
  normalAt(x: number, y: number, z: number, out: Float64Array): void {
    const r = this.rotation()
    const px = x - this.x[0], py = y - this.x[1], pz = z - this.x[2]
    this.shape.phiGrad(r[0] * px + r[3] * py + r[6] * pz, r[1] * px + r[4] * py + r[7] * pz, r[2] * px + r[5] * py + r[8] * pz, out, 0)
    const gx = out[0], gy = out[1], gz = out[2]
    out[0] = r[0] * gx + r[1] * gy + r[2] * gz
    out[1] = r[3] * gx + r[4] * gy + r[5] * gz
    out[2] = r[6] * gx + r[7] * gy + r[8] * gz
  }

  /** World inertia tensor R I_body R^T, into out (9). */
  worldInertia(out: Float64Array): Float64Array {
    rotateTensor(this.rotation(), 0, this.inertiaBody, out, 0)
    return out
  }

  /** World inverse inertia R I_body^-1 R^T, into out (9); zeros for a kinematic body. */
  worldInverseInertia(out: Float64Array): Float64Array {
    rotateTensor(this.rotation(), 0, this.invInertiaBody, out, 0)
    return out
  }

  /** Velocity of the body's material at world point p: v + w x (p - x), into out. */
  velocityAt(px: number, py: number, pz: number, out: Float64Array): Float64Array {
    const rx = px - this.x[0], ry = py - this.x[1], rz = pz - this.x[2]
    const w = this.w, v = this.v
    out[0] = v[0] + w[1] * rz - w[2] * ry
    out[1] = v[1] + w[2] * rx - w[0] * rz
    out[2] = v[2] + w[0] * ry - w[1] * rx
    return out
  }
}
