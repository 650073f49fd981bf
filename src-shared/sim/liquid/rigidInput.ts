// What the liquid solver is told about its rigid bodies (Carlson 2004 ch. 5): the bodies fixed
// for the bake (shape, density, contact material, when each starts to be simulated) in the
// setup, and each step the keyframed pose and its rates (the motion of a body before its
// "Active from frame", and the pose it starts from). Checked once here, with errors that name
// the object and field, so the solver never sees NaN or a body it cannot weigh.
import { EddyError } from '../../api/errors'
import { isClosedSurfaceRemembered } from '../../geometry/closedSurface'
import { PlacedSdf } from '../../geometry/placedSdf'
import { eulerXYZDegToMatrix, PrimitiveSdf, type PrimitiveShape } from '../../geometry/primitiveSdf'
import type { TriMesh } from '../../geometry/triMesh'
import type { Vec3 } from '../../scene/types'
import { meshMassProperties } from '../rigid/massProperties'
import type { ObstacleInput } from '../solver'

export interface RigidBodySetup {
  id: string
  name: string
  shape: PrimitiveShape | 'mesh'
  /** Per-axis scale at the bake's first frame (primitives: of the 1 m unit shape). */
  scale: Vec3
  /** Shape 'mesh': the closed mesh in object-local coordinates, scale applied. */
  mesh: TriMesh | null
  /** Density relative to the liquid's (water, 1000 kg/m^3). */
  relativeDensity: number
  /** Added to the keyed motion when the body becomes active: m/s and rad/s, world axes. */
  initialVelocity: Vec3
  initialSpin: Vec3
  restitution: number
  friction: number
  /** First animation frame at which the body is simulated (before it, it follows its keys). */
  activeFrom: number
  /** The keyed pose and rates at the bake's first frame, `start.frame`. */
  start: RigidPoseInput & { frame: number }
}

/** A body's keyframed transform at the input's time, and its rates. */
export interface RigidPoseInput {
  id: string
  position: Vec3
  /** XYZ Euler degrees (primitiveSdf.ts convention). */
  rotation: Vec3
  /** m/s and rad/s, world axes. */
  velocity: Vec3
  spin: Vec3
}

function bad(body: { id?: unknown; name?: unknown }, field: string, message: string, value: unknown): never {
  throw new EddyError('INVALID_PARAM', `Rigid body "${String(body.name)}": ${message}`, { objectId: body.id, field, value })
}

const finite3 = (v: unknown): v is Vec3 => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x))

export function validateRigidBodySetup(b: RigidBodySetup): void {
  if (typeof b !== 'object' || b === null) throw new EddyError('INVALID_PARAM', 'Rigid body setup must be an object', { field: 'rigidBodies' })
  if (!['box', 'sphere', 'cylinder', 'mesh'].includes(b.shape)) bad(b, 'shape', `shape must be box, sphere, cylinder or mesh (got ${String(b.shape)})`, b.shape)
  if (!finite3(b.scale) || b.scale.some((s) => !(s > 0))) bad(b, 'scale', 'scale must be three numbers above 0', b.scale)
  if (!(typeof b.relativeDensity === 'number' && b.relativeDensity > 0 && Number.isFinite(b.relativeDensity))) {
    bad(b, 'relativeDensity', `relative density must be a finite number above 0 (got ${String(b.relativeDensity)})`, b.relativeDensity)
  }
  if (!finite3(b.initialVelocity)) bad(b, 'initialVelocity', 'initial velocity must be three finite numbers', b.initialVelocity)
  if (!finite3(b.initialSpin)) bad(b, 'initialSpin', 'initial spin must be three finite numbers', b.initialSpin)
  if (!(b.restitution >= 0 && b.restitution <= 1)) bad(b, 'restitution', `bounciness must be between 0 and 1 (got ${String(b.restitution)})`, b.restitution)
  if (!(b.friction >= 0 && Number.isFinite(b.friction))) bad(b, 'friction', `friction must be a finite number >= 0 (got ${String(b.friction)})`, b.friction)
  if (!Number.isFinite(b.activeFrom)) bad(b, 'activeFrom', 'Active from frame must be a finite frame number', b.activeFrom)
  if (typeof b.start !== 'object' || b.start === null || !Number.isFinite(b.start.frame)) bad(b, 'start', 'the starting pose is missing', b.start)
  validateRigidPose(b.start, 0)
  if (b.shape === 'mesh') {
    if (!b.mesh) bad(b, 'meshId', 'shape Mesh needs an imported mesh', null)
    if (!isClosedSurfaceRemembered(b.mesh)) bad(b, 'meshId', 'its mesh is not closed (it has holes or open edges); a rigid body needs a watertight mesh to have a volume and a mass', null)
    // A closed mesh that encloses no volume (flat) or a negative one (inside out) has no mass:
    // refused here, naming the scene field, rather than when the rigid world is built.
    try {
      meshMassProperties(b.mesh, 1, { id: b.id, name: b.name })
    } catch (e) {
      if (e instanceof EddyError && e.code === 'INVALID_PARAM') throw new EddyError('INVALID_PARAM', e.message, { ...e.details, objectId: b.id, field: 'meshId' })
      throw e
    }
  }
}

/**
 * The first obstacle whose inside holds the point (x, y, z), placed at its input's time, or
 * null. Exact signed distances of the obstacles' shapes (placed as obstacleField.ts places
 * them), so the check at compile time and the solver's at its first step agree.
 */
export function obstacleContaining(x: number, y: number, z: number, obstacles: readonly ObstacleInput[]): ObstacleInput | null {
  for (const ob of obstacles) {
    const sx = Math.max(ob.scale[0], 1e-6), sy = Math.max(ob.scale[1], 1e-6), sz = Math.max(ob.scale[2], 1e-6)
    const [px, py, pz] = ob.position
    const [rx, ry, rz] = ob.rotation
    let placed: PlacedSdf
    if (ob.shape === 'mesh') {
      if (!ob.mesh) continue
      placed = new PlacedSdf(ob.mesh)
      placed.place(px, py, pz, rx, ry, rz, sx, sy, sz)
    } else {
      placed = new PlacedSdf(new PrimitiveSdf(ob.shape, { position: [0, 0, 0], rotation: [0, 0, 0], scale: [sx, sy, sz] }))
      placed.place(px, py, pz, rx, ry, rz, 1, 1, 1)
    }
    if (placed.distance(x, y, z) < 0) return ob
  }
  return null
}

/** INVALID_PARAM naming the body (objectId, field 'position') and the obstacle it starts in. */
export function startsInsideObstacle(body: { id: string; name: string }, obstacle: ObstacleInput, centre: ArrayLike<number>): never {
  throw new EddyError('INVALID_PARAM', `Rigid body "${body.name}" starts inside obstacle "${obstacle.name}": move it out of the obstacle`, {
    objectId: body.id,
    field: 'position',
    value: [centre[0], centre[1], centre[2]],
    obstacleId: obstacle.id,
  })
}

/** World centre of mass of a body at its starting pose (where the rigid solver's body starts). */
export function startCentre(b: RigidBodySetup): Vec3 {
  const p = b.start.position
  if (b.shape !== 'mesh' || !b.mesh) return [p[0], p[1], p[2]]
  const c = meshMassProperties(b.mesh, 1, { id: b.id, name: b.name }).centerOfMass
  const m = eulerXYZDegToMatrix(b.start.rotation)
  return [
    p[0] + m[0] * c[0] + m[1] * c[1] + m[2] * c[2],
    p[1] + m[3] * c[0] + m[4] * c[1] + m[5] * c[2],
    p[2] + m[6] * c[0] + m[7] * c[1] + m[8] * c[2],
  ]
}

/**
 * A body whose centre of mass starts inside an obstacle can never be pushed out cleanly:
 * refused by name before the bake touches the cache (compileLiquid.ts calls this with the
 * obstacles at the bake's first frame; the solver repeats it at its first step).
 */
export function checkRigidPlacement(bodies: readonly RigidBodySetup[], obstacles: readonly ObstacleInput[]): void {
  if (obstacles.length === 0) return
  for (const b of bodies) {
    const c = startCentre(b)
    const ob = obstacleContaining(c[0], c[1], c[2], obstacles)
    if (ob) startsInsideObstacle(b, ob, c)
  }
}

export function validateRigidPose(p: RigidPoseInput, i: number): void {
  const where = `rigidPoses[${i}] ("${String(p?.id)}")`
  if (typeof p !== 'object' || p === null || typeof p.id !== 'string') throw new EddyError('INVALID_PARAM', `Liquid ${where} must name its body`, { field: where })
  for (const key of ['position', 'rotation', 'velocity', 'spin'] as const) {
    if (!finite3(p[key])) throw new EddyError('INVALID_PARAM', `Liquid ${where}.${key} must be three finite numbers`, { field: `${where}.${key}`, value: p[key] })
  }
}
