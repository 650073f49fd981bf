// The rigid coupling's passes over its bodies' faces (reference: src-shared/sim/liquid/
// rigidFaceKernels.ts faceBlendSlab, boundaryFacesSlab, restoreFacesSlab, faceExchangeSlab). The same float64
// expressions in the same order as the references; float32 data promoted on load and rounded
// on store. Each face appears once in the list and each body sums only its own faces, so the
// thread split changes nothing.
import { rf32, rf64, ri32, wf32, wf64 } from './common'

// ownedFaces.ts FACE_STRIDE and FACE_BODY; rigidFaceKernels.ts BODY_STATE, BODY_FLAG, BLEND_WALL, EXCHANGE_STRIDE.
const STRIDE = 7
const BODY = 6
const STATE = 10
const FLAG = 9
const WALL = 0
const EXCHANGE = 42

@inline function pick(a: i32, u: usize, v: usize, w: usize): usize {
  return a == 0 ? u : a == 1 ? v : w
}

/** The body's share of entry t's face (f*), or -1 when its body is not flagged or the face not open (o* > 0 fails). */
@inline function openShare(face: usize, state: usize, t: i32, ou: usize, ov: usize, ow: usize, fu: usize, fv: usize, fw: usize): f64 {
  const o = STRIDE * t
  if (rf64(state, STATE * ri32(face, o + BODY) + FLAG) == 0) return -1
  const a = ri32(face, o), f = ri32(face, o + 1)
  return rf32(pick(a, ou, ov, ow), f) > 0 ? rf32(pick(a, fu, fv, fw), f) : -1
}

@inline function wallVelocity(state: usize, s: i32, a: i32, arm: usize, t: i32): f64 {
  return rf64(state, s + a) + rf64(arm, 3 * t) * rf64(state, s + 3) + rf64(arm, 3 * t + 1) * rf64(state, s + 4) + rf64(arm, 3 * t + 2) * rf64(state, s + 5)
}

@inline function rigidVelocity(state: usize, s: i32, a: i32, px: f64, py: f64, pz: f64): f64 {
  const rx = px - rf64(state, s + 6), ry = py - rf64(state, s + 7), rz = pz - rf64(state, s + 8)
  if (a == 0) return rf64(state, s) + rf64(state, s + 4) * rz - rf64(state, s + 5) * ry
  if (a == 1) return rf64(state, s + 1) + rf64(state, s + 5) * rx - rf64(state, s + 3) * rz
  return rf64(state, s + 2) + rf64(state, s + 3) * ry - rf64(state, s + 4) * rx
}

/** faceBlendSlab over entries [t0, t1). */
export function rigidFaceBlend(
  face: usize, arm: usize, state: usize, fu: usize, fv: usize, fw: usize, ou: usize, ov: usize, ow: usize, u: usize, v: usize, w: usize,
  mode: i32, dx: f64, ox: f64, oy: f64, oz: f64, t0: i32, t1: i32,
): void {
  for (let t = t0; t < t1; t++) {
    const share = openShare(face, state, t, ou, ov, ow, fu, fv, fw)
    if (share < 0) continue
    const o = STRIDE * t, s = STATE * ri32(face, o + BODY)
    const a = ri32(face, o), f = ri32(face, o + 1)
    let body: f64
    if (mode == WALL) body = wallVelocity(state, s, a, arm, t)
    else {
      const px = ox + (<f64>ri32(face, o + 2) + (a == 0 ? 0 : 0.5)) * dx
      const py = oy + (<f64>ri32(face, o + 3) + (a == 1 ? 0 : 0.5)) * dx
      const pz = oz + (<f64>ri32(face, o + 4) + (a == 2 ? 0 : 0.5)) * dx
      body = rigidVelocity(state, s, a, px, py, pz)
    }
    const comp = pick(a, u, v, w)
    wf32(comp, f, (1 - share) * rf32(comp, f) + share * body)
  }
}

/** boundaryFacesSlab over entries [t0, t1). */
export function rigidBoundaryFaces(
  face: usize, arm: usize, state: usize, fu: usize, fv: usize, fw: usize, ou: usize, ov: usize, ow: usize, cu: usize, cv: usize, cw: usize,
  u: usize, v: usize, w: usize, cellPhi: usize, nx: i32, ny: i32, nz: i32, t0: i32, t1: i32,
): void {
  for (let t = t0; t < t1; t++) {
    const share = openShare(face, state, t, ou, ov, ow, fu, fv, fw)
    if (share < 0) continue
    const o = STRIDE * t, s = STATE * ri32(face, o + BODY)
    const a = ri32(face, o), f = ri32(face, o + 1)
    const i = ri32(face, o + 2), j = ri32(face, o + 3), k = ri32(face, o + 4)
    let hi = -1, lo = -1
    if (a == 0) {
      if (i < nx) hi = i + nx * (j + ny * k)
      if (i > 0) lo = i - 1 + nx * (j + ny * k)
    } else if (a == 1) {
      if (j < ny) hi = i + nx * (j + ny * k)
      if (j > 0) lo = i + nx * (j - 1 + ny * k)
    } else {
      if (k < nz) hi = i + nx * (j + ny * k)
      if (k > 0) lo = i + nx * (j + ny * (k - 1))
    }
    const shut = (hi >= 0 && rf32(cellPhi, hi) < 0) || (lo >= 0 && rf32(cellPhi, lo) < 0)
    const left: f64 = shut ? 0 : 1 - share
    const c = pick(a, cu, cv, cw)
    if (left < rf32(c, f)) wf32(c, f, left)
    wf32(pick(a, u, v, w), f, wallVelocity(state, s, a, arm, t))
  }
}

/** faceExchangeSlab over bodies [b0, b1). */
export function rigidFaceExchange(
  face: usize, arm: usize, start: usize, state: usize, fu: usize, fv: usize, fw: usize, ou: usize, ov: usize, ow: usize,
  u: usize, v: usize, w: usize, su: usize, sv: usize, sw: usize, markerMass: f64, X: usize, b0: i32, b1: i32,
): void {
  for (let b = b0; b < b1; b++) {
    if (rf64(state, STATE * b + FLAG) == 0) continue
    const x = EXCHANGE * b
    for (let t = ri32(start, b), t1 = ri32(start, b + 1); t < t1; t++) {
      const o = STRIDE * t
      const a = ri32(face, o), f = ri32(face, o + 1)
      if (!(rf32(pick(a, ou, ov, ow), f) > 0)) continue
      const m = markerMass * rf64(pick(a, su, sv, sw), 2 * f + 1)
      if (!(m > 0)) continue
      const mw = m * rf32(pick(a, fu, fv, fw), f), comp = rf32(pick(a, u, v, w), f)
      // J = [e_a ; arm]: row r < 3 is zero unless r = a; rows 3-5 the arm (skipped where 0).
      for (let r = 0; r < 6; r++) {
        const jr: f64 = r < 3 ? (r == a ? 1 : 0) : rf64(arm, 3 * t + r - 3)
        if (jr == 0) continue
        wf64(X, x + 36 + r, rf64(X, x + 36 + r) + mw * jr * comp)
        for (let c = 0; c < 6; c++) {
          const jc: f64 = c < 3 ? (c == a ? 1 : 0) : rf64(arm, 3 * t + c - 3)
          wf64(X, x + 6 * r + c, rf64(X, x + 6 * r + c) + mw * jr * jc)
        }
      }
    }
  }
}

/** restoreFacesSlab over entries [t0, t1). */
export function rigidRestoreFaces(
  face: usize, state: usize, ou: usize, ov: usize, ow: usize, cu: usize, cv: usize, cw: usize, u: usize, v: usize, w: usize, su: usize, sv: usize, sw: usize, t0: i32, t1: i32,
): void {
  for (let t = t0; t < t1; t++) {
    const o = STRIDE * t
    if (rf64(state, STATE * ri32(face, o + BODY) + FLAG) == 0) continue
    const a = ri32(face, o), f = ri32(face, o + 1)
    if (rf32(pick(a, cu, cv, cw), f) == 0 && rf32(pick(a, ou, ov, ow), f) > 0) store<f32>(pick(a, u, v, w) + (<usize>f << 2), load<f32>(pick(a, su, sv, sw) + (<usize>f << 2)))
  }
}
