// Conversions between the document's transform parameters and Babylon nodes.
// The document stores rotation as XYZ Euler degrees "applied X first, then Y, then Z"
// (extrinsic, right-hand rule), i.e. R = Rz * Ry * Rx on column vectors. Babylon's own
// `rotation` property uses a different (yaw-pitch-roll) order, so visuals always drive
// `rotationQuaternion` with the quaternion computed here, and gizmo results are turned
// back into XYZ degrees with the inverse below.
import { Quaternion } from '@babylonjs/core/Maths/math.vector'
import type { Vec3 } from '../../src-shared/scene/types'

const DEG = Math.PI / 180

interface Q {
  x: number
  y: number
  z: number
  w: number
}

/** Hamilton product a*b: rotating by the result applies b first, then a. */
function mul(a: Q, b: Q): Q {
  return {
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
  }
}

function axisAngle(axis: 0 | 1 | 2, rad: number): Q {
  const s = Math.sin(rad / 2)
  return { x: axis === 0 ? s : 0, y: axis === 1 ? s : 0, z: axis === 2 ? s : 0, w: Math.cos(rad / 2) }
}

/** XYZ Euler degrees (X applied first) to a Babylon quaternion. */
export function eulerXYZDegToQuaternion(deg: Vec3, ref: Quaternion = new Quaternion()): Quaternion {
  const q = mul(axisAngle(2, deg[2] * DEG), mul(axisAngle(1, deg[1] * DEG), axisAngle(0, deg[0] * DEG)))
  ref.set(q.x, q.y, q.z, q.w)
  return ref
}

/** Shifts `angle` by whole turns so it is as close as possible to `near` (keeps 370 deg as 370). */
function unwrap(angle: number, near: number): number {
  return angle + 360 * Math.round((near - angle) / 360)
}

/**
 * Quaternion back to XYZ Euler degrees. Of the two equivalent angle triples (and their
 * whole-turn shifts), returns the one closest to `previous`, so dragging a rotation gizmo
 * does not make the inspector's numbers jump (e.g. [0, 0, 370] stays near 370).
 */
export function quaternionToEulerXYZDeg(q: { x: number; y: number; z: number; w: number }, previous: Vec3 = [0, 0, 0]): Vec3 {
  const n = Math.hypot(q.x, q.y, q.z, q.w) || 1
  const x = q.x / n, y = q.y / n, z = q.z / n, w = q.w / n
  // Rotation matrix entries (column-vector convention) needed for R = Rz Ry Rx.
  const m00 = 1 - 2 * (y * y + z * z)
  const m10 = 2 * (x * y + w * z)
  const m20 = 2 * (x * z - w * y)
  const m21 = 2 * (y * z + w * x)
  const m22 = 1 - 2 * (x * x + y * y)
  const m11 = 1 - 2 * (x * x + z * z)
  const m12 = 2 * (y * z - w * x)
  let a: number, b: number, c: number
  if (Math.abs(m20) < 0.999999) {
    b = Math.asin(-m20)
    a = Math.atan2(m21, m22)
    c = Math.atan2(m10, m00)
  } else {
    // Gimbal lock (Y = +-90 deg): X and Z turn about the same axis, only a - c (Y = +90)
    // or a + c (Y = -90) is defined; keep the previous Z and put the rest in X.
    b = m20 < 0 ? Math.PI / 2 : -Math.PI / 2
    c = previous[2] * DEG
    a = Math.atan2(-m12, m11) + (b > 0 ? c : -c)
  }
  const first: Vec3 = [a / DEG, b / DEG, c / DEG]
  const second: Vec3 = [first[0] + 180, 180 - first[1], first[2] + 180]
  const fit = (t: Vec3): Vec3 => [unwrap(t[0], previous[0]), unwrap(t[1], previous[1]), unwrap(t[2], previous[2])]
  const f1 = fit(first)
  const f2 = fit(second)
  const dist = (t: Vec3) => Math.abs(t[0] - previous[0]) + Math.abs(t[1] - previous[1]) + Math.abs(t[2] - previous[2])
  return dist(f2) < dist(f1) - 1e-9 ? f2 : f1
}

/** Rounds gizmo results so the document does not fill up with 0.30000000000000004. */
export function tidy(v: number, digits = 6): number {
  const r = Number(v.toFixed(digits))
  return Object.is(r, -0) ? 0 : r
}

export function tidyVec(v: { x: number; y: number; z: number } | Vec3, digits = 6): Vec3 {
  return Array.isArray(v) ? [tidy(v[0], digits), tidy(v[1], digits), tidy(v[2], digits)] : [tidy(v.x, digits), tidy(v.y, digits), tidy(v.z, digits)]
}
