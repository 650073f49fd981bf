// Velocities of a keyframed transform from two evaluations a short time apart: the linear
// velocity is the difference quotient of the position; the angular velocity is the rotation
// vector of R1 R0^T (the rotation taking the first orientation to the second) over the time,
// so a spin about any axis comes out right however the Euler channels were keyed.
import { eulerXYZDegToMatrix } from '../geometry/primitiveSdf'
import type { Vec3 } from '../scene/types'

/** Rotation vector (axis * angle, radians) of the row-major rotation matrix m. */
export function rotationVector(m: ArrayLike<number>): Vec3 {
  const trace = m[0] + m[4] + m[8]
  const c = Math.min(1, Math.max(-1, 0.5 * (trace - 1)))
  const angle = Math.acos(c)
  // Skew part: 2 sin(angle) * axis.
  const sx = m[7] - m[5]
  const sy = m[2] - m[6]
  const sz = m[3] - m[1]
  if (angle < 1e-7) return [0.5 * sx, 0.5 * sy, 0.5 * sz] // sin(a) ~ a
  if (Math.PI - angle > 1e-6) {
    const s = angle / (2 * Math.sin(angle))
    return [s * sx, s * sy, s * sz]
  }
  // Half turn: the skew part vanishes; the axis is the column of (R + I) / 2 = a a^T with the
  // largest diagonal, its sign taken from the (tiny) skew part when there is one.
  const d = [m[0], m[4], m[8]]
  const col = d[0] >= d[1] && d[0] >= d[2] ? 0 : d[1] >= d[2] ? 1 : 2
  const a: Vec3 = [0, 0, 0]
  a[col] = Math.sqrt(Math.max(0, 0.5 * (d[col] + 1)))
  for (let r = 0; r < 3; r++) if (r !== col) a[r] = (0.5 * (m[3 * r + col] + m[3 * col + r])) / (2 * a[col])
  const len = Math.hypot(a[0], a[1], a[2])
  const flip = a[0] * sx + a[1] * sy + a[2] * sz < 0 ? -1 : 1
  const s = (flip * angle) / len
  return [a[0] * s, a[1] * s, a[2] * s]
}

/** World angular velocity (rad/s) turning Euler XYZ degrees rot0 into rot1 over dt seconds. */
export function angularVelocityFromEuler(rot0: ArrayLike<number>, rot1: ArrayLike<number>, dt: number): Vec3 {
  if (!(dt > 0)) return [0, 0, 0]
  const r0 = eulerXYZDegToMatrix(rot0)
  const r1 = eulerXYZDegToMatrix(rot1)
  // d = R1 R0^T, row-major.
  const d = new Float64Array(9)
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) d[3 * i + j] = r1[3 * i] * r0[3 * j] + r1[3 * i + 1] * r0[3 * j + 1] + r1[3 * i + 2] * r0[3 * j + 2]
  }
  const w = rotationVector(d)
  return [w[0] / dt, w[1] / dt, w[2] / dt]
}
