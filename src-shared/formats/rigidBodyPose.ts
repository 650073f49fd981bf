// A rigid body's local mesh placed at its pose: world = position + rotate(orientation, local).
// Shared by the viewport (posed meshes drawn per frame) and the OBJ/PLY exporters (posed
// triangles per frame); glTF keeps the local mesh and animates the node instead.
import type { FrameMesh, Quat, RigidBodyState } from '../sim/frame'
import { isColourAttribute } from './upAxis'

/**
 * The orientation scaled to unit length (solvers' quaternions drift by rounding); a zero or
 * non-finite quaternion, which names no rotation, becomes the identity.
 */
export function unitQuat(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3])
  if (!(n > 0) || !Number.isFinite(n)) return [0, 0, 0, 1]
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
}

/**
 * Rotates the xyz triples of `src` by the unit quaternion q, adds t, writes to `out` (may be
 * src). v' = v + 2w (u x v) + 2 u x (u x v), u = (x, y, z): no matrix, no allocation per point.
 */
export function rotateTranslate(src: Float32Array, q: Quat, t: readonly [number, number, number], out: Float32Array): Float32Array {
  const [x, y, z, w] = q
  for (let i = 0; i + 2 < src.length; i += 3) {
    const vx = src[i], vy = src[i + 1], vz = src[i + 2]
    // c = 2 (u x v)
    const cx = 2 * (y * vz - z * vy)
    const cy = 2 * (z * vx - x * vz)
    const cz = 2 * (x * vy - y * vx)
    out[i] = vx + w * cx + (y * cz - z * cy) + t[0]
    out[i + 1] = vy + w * cy + (z * cx - x * cz) + t[1]
    out[i + 2] = vz + w * cz + (x * cy - y * cx) + t[2]
  }
  return out
}

const ORIGIN: readonly [number, number, number] = [0, 0, 0]

/**
 * The body's mesh in world space (named after the body). Normals and the body's vector
 * attributes turn with it, colours and scalars are shared unchanged; indices are shared.
 */
export function posedMesh(body: RigidBodyState): FrameMesh {
  const q = unitQuat(body.orientation)
  const m = body.mesh
  const out: FrameMesh = {
    name: body.name,
    positions: rotateTranslate(m.positions, q, body.position, new Float32Array(m.positions.length)),
    indices: m.indices,
  }
  if (m.normals) out.normals = rotateTranslate(m.normals, q, ORIGIN, new Float32Array(m.normals.length))
  if (m.attributes) {
    out.attributes = {}
    for (const [name, a] of Object.entries(m.attributes)) {
      out.attributes[name] = a.components === 3 && !isColourAttribute(name) ? { components: 3, data: rotateTranslate(a.data, q, ORIGIN, new Float32Array(a.data.length)) } : a
    }
  }
  return out
}
