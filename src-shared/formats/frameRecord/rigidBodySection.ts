// Rigid bodies: the pose (position, orientation, velocities) travels in the header as JSON
// numbers, which keeps every double exactly; the body-local mesh is the body's section.
import { EddyError } from '../../api/errors'
import type { FrameMesh, RigidBodyState } from '../../sim/frame'
import { encNum, type MeshHeader, type RigidBodyHeader } from './header'
import { decodeMesh, encodeMesh } from './meshSection'

function checkVector(v: readonly number[], n: number, what: string): void {
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number')) {
    throw new EddyError('INVALID_PARAM', `${what} must be ${n} numbers`)
  }
}

/** The body's raw mesh bytes and its header (the mesh header still lacks its packed length). */
export function encodeRigidBody(b: RigidBodyState, i: number): { raw: Uint8Array; header: Omit<RigidBodyHeader, 'mesh'> & { mesh: Omit<MeshHeader, 'packed'> } } {
  const what = `Rigid body '${b.name}'`
  if (typeof b.id !== 'string' || typeof b.name !== 'string') throw new EddyError('INVALID_PARAM', `Rigid body ${i} needs a string id and name`)
  checkVector(b.position, 3, `${what} position`)
  checkVector(b.orientation, 4, `${what} orientation`)
  checkVector(b.linearVelocity, 3, `${what} linear velocity`)
  checkVector(b.angularVelocity, 3, `${what} angular velocity`)
  if (!b.mesh) throw new EddyError('INVALID_PARAM', `${what} has no mesh`)
  const { raw, header } = encodeMesh(b.mesh, `${what} mesh`)
  return {
    raw,
    header: {
      id: b.id,
      name: b.name,
      position: b.position.map(encNum),
      orientation: b.orientation.map(encNum),
      linearVelocity: b.linearVelocity.map(encNum),
      angularVelocity: b.angularVelocity.map(encNum),
      mesh: header,
    },
  }
}

export function decodeRigidBody(h: RigidBodyHeader, raw: Uint8Array): RigidBodyState {
  const mesh: FrameMesh = decodeMesh(h.mesh, raw)
  const n = (v: (number | string)[]) => v as number[] // parseHeader has turned them into numbers
  const [px, py, pz] = n(h.position)
  const [qx, qy, qz, qw] = n(h.orientation)
  const [vx, vy, vz] = n(h.linearVelocity)
  const [wx, wy, wz] = n(h.angularVelocity)
  return {
    id: h.id,
    name: h.name,
    position: [px, py, pz],
    orientation: [qx, qy, qz, qw],
    linearVelocity: [vx, vy, vz],
    angularVelocity: [wx, wy, wz],
    mesh,
  }
}
