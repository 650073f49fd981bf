// The rigid-motion coarse space's passes (reference: src-shared/sim/liquid/rigidModeKernels.ts
// rigidModesDotSlab and rigidModesAddSlab, which describe the layout): the same scalar
// operations in the same order, so the same bits.
import { rf64, wf64, ri32 } from './common'

/** rigidModesDotSlab: y = Z^T v, each sum in list order. */
export function rigidModesDot(v: usize, faces: usize, arms: usize, start: usize, regions: i32, y: usize, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  for (let q = 0; q < regions; q++) {
    const b = 3 * q
    let tx: f64 = 0, ty: f64 = 0, tz: f64 = 0, rx: f64 = 0, ry: f64 = 0, rz: f64 = 0
    let end = ri32(start, b + 1)
    for (let t = ri32(start, b); t < end; t++) {
      const vt = rf64(v, ri32(faces, t))
      tx += vt
      ry += rf64(arms, 2 * t) * vt
      rz += rf64(arms, 2 * t + 1) * vt
    }
    end = ri32(start, b + 2)
    for (let t = ri32(start, b + 1); t < end; t++) {
      const vt = rf64(v, ri32(faces, t))
      ty += vt
      rx += rf64(arms, 2 * t) * vt
      rz += rf64(arms, 2 * t + 1) * vt
    }
    end = ri32(start, b + 3)
    for (let t = ri32(start, b + 2); t < end; t++) {
      const vt = rf64(v, ri32(faces, t))
      tz += vt
      rx += rf64(arms, 2 * t) * vt
      ry += rf64(arms, 2 * t + 1) * vt
    }
    const o = 6 * q
    wf64(y, o, tx)
    wf64(y, o + 1, ty)
    wf64(y, o + 2, tz)
    wf64(y, o + 3, rx)
    wf64(y, o + 4, ry)
    wf64(y, o + 5, rz)
  }
}

/** rigidModesAddSlab: z += Z y. */
export function rigidModesAdd(z: usize, faces: usize, arms: usize, start: usize, regions: i32, y: usize, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  for (let q = 0; q < regions; q++) {
    const b = 3 * q, o = 6 * q
    const tx = rf64(y, o), ty = rf64(y, o + 1), tz = rf64(y, o + 2), rx = rf64(y, o + 3), ry = rf64(y, o + 4), rz = rf64(y, o + 5)
    let end = ri32(start, b + 1)
    for (let t = ri32(start, b); t < end; t++) {
      const f = ri32(faces, t)
      wf64(z, f, rf64(z, f) + (tx + rf64(arms, 2 * t) * ry + rf64(arms, 2 * t + 1) * rz))
    }
    end = ri32(start, b + 2)
    for (let t = ri32(start, b + 1); t < end; t++) {
      const f = ri32(faces, t)
      wf64(z, f, rf64(z, f) + (ty + rf64(arms, 2 * t) * rx + rf64(arms, 2 * t + 1) * rz))
    }
    end = ri32(start, b + 3)
    for (let t = ri32(start, b + 2); t < end; t++) {
      const f = ri32(faces, t)
      wf64(z, f, rf64(z, f) + (tz + rf64(arms, 2 * t) * rx + rf64(arms, 2 * t + 1) * ry))
    }
  }
}
