// Small 3-D helpers of the rigid-body solver, over Float64Array slots so the per-step loops
// allocate nothing: unit quaternions (x, y, z, w with w the scalar part, as in
// src-shared/sim/frame.ts), row-major 3x3 matrices.

/** Row-major rotation matrix of the unit quaternion q[o..o+3] = (x, y, z, w). */
export function quatToMatrix(q: ArrayLike<number>, o: number, out: Float64Array, m: number = 0): Float64Array {
  const x = q[o], y = q[o + 1], z = q[o + 2], w = q[o + 3]
  const xx = x * x, yy = y * y, zz = z * z
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
  out[m] = 1 - 2 * (yy + zz); out[m + 1] = 2 * (xy - wz); out[m + 2] = 2 * (xz + wy)
  out[m + 3] = 2 * (xy + wz); out[m + 4] = 1 - 2 * (xx + zz); out[m + 5] = 2 * (yz - wx)
  out[m + 6] = 2 * (xz - wy); out[m + 7] = 2 * (yz + wx); out[m + 8] = 1 - 2 * (xx + yy)
  return out
}

/**
 * Rotates q (at qo) by the angle |w| dt about w (world axes): q' = exp(w dt / 2) (x) q,
 * renormalised (Shoemake 1985). The exact exponential, not q + dt/2 w q, so a fast spin is
 * a rotation by the right angle however large w dt is. Writes to out[oo..oo+3] (may alias q).
 */
export function integrateQuat(q: ArrayLike<number>, qo: number, wx: number, wy: number, wz: number, dt: number, out: Float64Array, oo: number): void {
  const len = Math.sqrt(wx * wx + wy * wy + wz * wz)
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3]
  if (!(len * dt > 0)) {
    out[oo] = x; out[oo + 1] = y; out[oo + 2] = z; out[oo + 3] = w
    return
  }
  const half = 0.5 * len * dt
  const s = Math.sin(half) / len, c = Math.cos(half)
  const ax = wx * s, ay = wy * s, az = wz * s
  // Hamilton product (ax, ay, az, c) (x) (x, y, z, w).
  let nx = c * x + ax * w + ay * z - az * y
  let ny = c * y - ax * z + ay * w + az * x
  let nz = c * z + ax * y - ay * x + az * w
  let nw = c * w - ax * x - ay * y - az * z
  const n = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw)
  nx *= n; ny *= n; nz *= n; nw *= n
  out[oo] = nx; out[oo + 1] = ny; out[oo + 2] = nz; out[oo + 3] = nw
}

/** out = R A R^T for row-major 3x3 R and symmetric A (body tensor to world axes). */
export function rotateTensor(r: Float64Array, ro: number, a: Float64Array, out: Float64Array, oo: number): void {
  // t = R A
  const t0 = r[ro] * a[0] + r[ro + 1] * a[3] + r[ro + 2] * a[6]
  const t1 = r[ro] * a[1] + r[ro + 1] * a[4] + r[ro + 2] * a[7]
  const t2 = r[ro] * a[2] + r[ro + 1] * a[5] + r[ro + 2] * a[8]
  const t3 = r[ro + 3] * a[0] + r[ro + 4] * a[3] + r[ro + 5] * a[6]
  const t4 = r[ro + 3] * a[1] + r[ro + 4] * a[4] + r[ro + 5] * a[7]
  const t5 = r[ro + 3] * a[2] + r[ro + 4] * a[5] + r[ro + 5] * a[8]
  const t6 = r[ro + 6] * a[0] + r[ro + 7] * a[3] + r[ro + 8] * a[6]
  const t7 = r[ro + 6] * a[1] + r[ro + 7] * a[4] + r[ro + 8] * a[7]
  const t8 = r[ro + 6] * a[2] + r[ro + 7] * a[5] + r[ro + 8] * a[8]
  // out = t R^T (symmetric, but computed in full so round-off stays symmetric-ish anyway).
  const m00 = t0 * r[ro] + t1 * r[ro + 1] + t2 * r[ro + 2]
  const m01 = t0 * r[ro + 3] + t1 * r[ro + 4] + t2 * r[ro + 5]
  const m02 = t0 * r[ro + 6] + t1 * r[ro + 7] + t2 * r[ro + 8]
  const m11 = t3 * r[ro + 3] + t4 * r[ro + 4] + t5 * r[ro + 5]
  const m12 = t3 * r[ro + 6] + t4 * r[ro + 7] + t5 * r[ro + 8]
  const m22 = t6 * r[ro + 6] + t7 * r[ro + 7] + t8 * r[ro + 8]
  out[oo] = m00; out[oo + 1] = m01; out[oo + 2] = m02
  out[oo + 3] = m01; out[oo + 4] = m11; out[oo + 5] = m12
  out[oo + 6] = m02; out[oo + 7] = m12; out[oo + 8] = m22
}

/** Inverse of a symmetric positive definite 3x3 (cofactors); a singular one gives zeros. */
export function invertSym3(a: Float64Array, out: Float64Array): Float64Array {
  const c00 = a[4] * a[8] - a[5] * a[7]
  const c01 = a[5] * a[6] - a[3] * a[8]
  const c02 = a[3] * a[7] - a[4] * a[6]
  const det = a[0] * c00 + a[1] * c01 + a[2] * c02
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) {
    out.fill(0, 0, 9)
    return out
  }
  const s = 1 / det
  out[0] = c00 * s
  out[1] = (a[2] * a[7] - a[1] * a[8]) * s
  out[2] = (a[1] * a[5] - a[2] * a[4]) * s
  out[3] = c01 * s
  out[4] = (a[0] * a[8] - a[2] * a[6]) * s
  out[5] = (a[2] * a[3] - a[0] * a[5]) * s
  out[6] = c02 * s
  out[7] = (a[1] * a[6] - a[0] * a[7]) * s
  out[8] = (a[0] * a[4] - a[1] * a[3]) * s
  return out
}

/**
 * Torque-free rotation of a rigid body over dt: its angular momentum L = R I R^T w is
 * constant, its angular velocity w = R I^-1 R^T L follows the orientation (the body
 * precesses). Midpoint rule: rotate half a step by w, take w at that half-step orientation,
 * rotate the whole step from q by it. Second order, so a tumbling brick's kinetic energy
 * stays put to O(dt^2) where rotating by the start-of-step w (first order) drifts by
 * percents per second; for a body of isotropic inertia (a sphere, a cube) it is exactly
 * the rotation by w. L is conserved exactly (up to round-off).
 * Reads q[qo..qo+3], w[wo..wo+2]; writes the new orientation to outQ[oq..] and, if outW is
 * given, the new angular velocity to outW[ow..] (both may alias the inputs). `scratch`
 * holds at least 22 doubles.
 */
export function rotateBody(q: Float64Array, qo: number, w: Float64Array, wo: number, inertia: Float64Array, invInertia: Float64Array, dt: number, outQ: Float64Array, oq: number, outW: Float64Array | null, ow: number, scratch: Float64Array): void {
  const wx = w[wo], wy = w[wo + 1], wz = w[wo + 2]
  if (wx === 0 && wy === 0 && wz === 0) {
    for (let k = 0; k < 4; k++) outQ[oq + k] = q[qo + k]
    return
  }
  const R = scratch, T = scratch // R at 0..8, T at 9..17, half-step quaternion at 18..21
  quatToMatrix(q, qo, R, 0)
  rotateTensor(R, 0, inertia, T, 9)
  const lx = T[9] * wx + T[10] * wy + T[11] * wz
  const ly = T[12] * wx + T[13] * wy + T[14] * wz
  const lz = T[15] * wx + T[16] * wy + T[17] * wz
  integrateQuat(q, qo, wx, wy, wz, 0.5 * dt, scratch, 18)
  quatToMatrix(scratch, 18, R, 0)
  rotateTensor(R, 0, invInertia, T, 9)
  const hx = T[9] * lx + T[10] * ly + T[11] * lz
  const hy = T[12] * lx + T[13] * ly + T[14] * lz
  const hz = T[15] * lx + T[16] * ly + T[17] * lz
  integrateQuat(q, qo, hx, hy, hz, dt, outQ, oq)
  if (!outW) return
  quatToMatrix(outQ, oq, R, 0)
  rotateTensor(R, 0, invInertia, T, 9)
  outW[ow] = T[9] * lx + T[10] * ly + T[11] * lz
  outW[ow + 1] = T[12] * lx + T[13] * ly + T[14] * lz
  outW[ow + 2] = T[15] * lx + T[16] * ly + T[17] * lz
}
