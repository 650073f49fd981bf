// The rigid-motion coarse space's two passes over its faces (rigidModes.ts addCorrection) as
// kernel-table rows: y = Z^T v and z += Z y, for every region. They run at every iteration of
// the viscosity solve. Z is the sampled rigid motions, which are sparse: a face of component c
// (0 = u, 1 = v, 2 = w) has 1 in translation c and its two lever arms in the two rotations
// that move it (omega x r: a u face in the rotations about y and z, a v face about x and z, a
// w face about x and y; arm 0 for the lower axis). So the faces come grouped by region and
// component (region q's component-c faces at start[3 q + c] .. start[3 q + c + 1]) with
// arms[2 t], arms[2 t + 1], and y holds six values a region: translations x, y, z, then
// rotations about x, y, z. Serial (one index: regions may share a face, and each sum is taken
// in list order), so the same bits on any backend. Twin: wasm/assembly/rigidModes.ts.
import { defineKernel, f64, i32, int } from '../core/kernelTable'

/** Modes per region: three translations, three rotations. */
export const RIGID_MODES = 6

/** y = Z^T v: per region, each of its six sums taken over its faces in list order. */
export function rigidModesDotSlab(v: Float64Array, faces: Int32Array, arms: Float64Array, start: Int32Array, regions: number, y: Float64Array, k0: number, k1: number): void {
  if (k0 >= k1) return
  for (let q = 0; q < regions; q++) {
    const b = 3 * q
    // u faces: translation x, rotations about y and z.
    let tx = 0, ty = 0, tz = 0, rx = 0, ry = 0, rz = 0
    for (let t = start[b]; t < start[b + 1]; t++) {
      const vt = v[faces[t]]
      tx += vt
      ry += arms[2 * t] * vt
      rz += arms[2 * t + 1] * vt
    }
    // v faces: translation y, rotations about x and z.
    for (let t = start[b + 1]; t < start[b + 2]; t++) {
      const vt = v[faces[t]]
      ty += vt
      rx += arms[2 * t] * vt
      rz += arms[2 * t + 1] * vt
    }
    // w faces: translation z, rotations about x and y.
    for (let t = start[b + 2]; t < start[b + 3]; t++) {
      const vt = v[faces[t]]
      tz += vt
      rx += arms[2 * t] * vt
      ry += arms[2 * t + 1] * vt
    }
    const o = RIGID_MODES * q
    y[o] = tx
    y[o + 1] = ty
    y[o + 2] = tz
    y[o + 3] = rx
    y[o + 4] = ry
    y[o + 5] = rz
  }
}

/** z += Z y: each face adds (its translation's y + arm 0 x its first rotation's y) + arm 1 x its second's. */
export function rigidModesAddSlab(z: Float64Array, faces: Int32Array, arms: Float64Array, start: Int32Array, regions: number, y: Float64Array, k0: number, k1: number): void {
  if (k0 >= k1) return
  for (let q = 0; q < regions; q++) {
    const b = 3 * q, o = RIGID_MODES * q
    const tx = y[o], ty = y[o + 1], tz = y[o + 2], rx = y[o + 3], ry = y[o + 4], rz = y[o + 5]
    for (let t = start[b]; t < start[b + 1]; t++) z[faces[t]] += tx + arms[2 * t] * ry + arms[2 * t + 1] * rz
    for (let t = start[b + 1]; t < start[b + 2]; t++) z[faces[t]] += ty + arms[2 * t] * rx + arms[2 * t + 1] * rz
    for (let t = start[b + 2]; t < start[b + 3]; t++) z[faces[t]] += tz + arms[2 * t] * rx + arms[2 * t + 1] * ry
  }
}

const ARGS = [f64('v'), i32('faces'), f64('arms'), i32('start'), int('regions'), f64('y')]

export const RIGID_MODES_DOT = defineKernel({
  name: 'rigidModesDot',
  args: ARGS,
  split: 'rows',
  range: () => 1,
  work: () => 0,
  ref: rigidModesDotSlab,
})

export const RIGID_MODES_ADD = defineKernel({
  name: 'rigidModesAdd',
  args: ARGS,
  split: 'rows',
  range: () => 1,
  work: () => 0,
  ref: rigidModesAddSlab,
})
