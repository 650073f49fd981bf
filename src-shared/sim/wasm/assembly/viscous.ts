// The viscosity system's product (reference: src-shared/sim/liquid/viscousKernels.ts
// viscousApplySlab and viscousAccumulate): the same scalar operations in the same order, so
// the same bits.
import { colourPairAt, rf64, wf64, ri32, ru8 } from './common'

@inline function addAt(p: usize, i: i32, v: f64): void {
  wf64(p, i, rf64(p, i) + v)
}

@inline function subAt(p: usize, i: i32, v: f64): void {
  wf64(p, i, rf64(p, i) - v)
}

/** A face value, 0 beyond the domain (index -1). */
@inline function at(src: usize, f: i32): f64 {
  return f >= 0 ? rf64(src, f) : 0
}

function viscousAccumulate(src: usize, out: usize, cellSites: usize, cellCount: i32, wCell: usize, edgeFaces: usize, edgeW: usize, edgeG: usize, edgeCount: i32, nx: i32, ny: i32, nu: i32, nv: i32, full: i32): void {
  const ov = nu, ow = nu + nv
  const plane = nx * ny
  for (let t = 0; t < cellCount; t++) {
    const c = ri32(cellSites, t)
    const w = rf64(wCell, c)
    const row = c / nx
    const k = row / ny
    const u0 = c + row
    let d = w * (rf64(src, u0 + 1) - rf64(src, u0))
    addAt(out, u0 + 1, d)
    subAt(out, u0, d)
    const v0 = ov + c + nx * k
    d = w * (rf64(src, v0 + nx) - rf64(src, v0))
    addAt(out, v0 + nx, d)
    subAt(out, v0, d)
    const w0 = ow + c
    d = w * (rf64(src, w0 + plane) - rf64(src, w0))
    addAt(out, w0 + plane, d)
    subAt(out, w0, d)
  }
  for (let t = 0; t < edgeCount; t++) {
    const w = rf64(edgeW, t)
    const flags = ru8(edgeG, t)
    const a0 = ri32(edgeFaces, 4 * t), a1 = ri32(edgeFaces, 4 * t + 1), b0 = ri32(edgeFaces, 4 * t + 2), b1 = ri32(edgeFaces, 4 * t + 3)
    const ca: f64 = flags & 1 ? 2 : 1
    const cb: f64 = flags & 2 ? 2 : 1
    const da = ca * (at(src, a1) - at(src, a0))
    const db = cb * (at(src, b1) - at(src, b0))
    let ta: f64, tb: f64
    if (full != 0) {
      const s = w * (da + db)
      ta = ca * s
      tb = cb * s
    } else {
      ta = w * ca * da
      tb = w * cb * db
    }
    if (a1 >= 0) addAt(out, a1, ta)
    if (a0 >= 0) subAt(out, a0, ta)
    if (b1 >= 0) addAt(out, b1, tb)
    if (b0 >= 0) subAt(out, b0, tb)
  }
}

/** viscousApplySlab: out = A x on the unknowns, or b - A x when b is given (b = 0: none). */
export function viscousApply(x: usize, out: usize, b: usize, tmp: usize, mass: usize, faces: usize, faceCount: i32, wallFaces: usize, wallCount: i32, cellSites: usize, cellCount: i32, wCell: usize, edgeFaces: usize, edgeW: usize, edgeG: usize, edgeCount: i32, nx: i32, ny: i32, nu: i32, nv: i32, full: i32, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  for (let t = 0; t < faceCount; t++) {
    const f = ri32(faces, t)
    wf64(tmp, f, rf64(x, f))
    wf64(out, f, 0)
  }
  viscousAccumulate(tmp, out, cellSites, cellCount, wCell, edgeFaces, edgeW, edgeG, edgeCount, nx, ny, nu, nv, full)
  for (let t = 0; t < wallCount; t++) {
    const f = ri32(wallFaces, t)
    wf64(out, f, rf64(x, f))
  }
  if (b == 0) {
    for (let t = 0; t < faceCount; t++) {
      const f = ri32(faces, t)
      wf64(out, f, rf64(mass, f) * rf64(tmp, f) + rf64(out, f))
    }
  } else {
    for (let t = 0; t < faceCount; t++) {
      const f = ri32(faces, t)
      wf64(out, f, rf64(b, f) - (rf64(mass, f) * rf64(tmp, f) + rf64(out, f)))
    }
  }
}

/** vmgSweepSlab: a red-black half sweep over order[begin + q0 .. begin + q1). */
export function vmgSweep(diag: usize, lx: usize, ly: usize, lz: usize, x: usize, b: usize, order: usize, begin: i32, sx: i32, plane: i32, q0: i32, q1: i32): void {
  for (let q = begin + q0; q < begin + q1; q++) {
    const f = ri32(order, q)
    wf64(x, f, (rf64(b, f) + rf64(lx, f) * rf64(x, f + 1) + rf64(lx, f - 1) * rf64(x, f - 1) + rf64(ly, f) * rf64(x, f + sx) + rf64(ly, f - sx) * rf64(x, f - sx) + rf64(lz, f) * rf64(x, f + plane) + rf64(lz, f - plane) * rf64(x, f - plane)) / rf64(diag, f))
  }
}

/** vmgResidualSlab: r = b - B x over the listed nodes of colour pairs [q0, q1). */
export function vmgResidual(diag: usize, lx: usize, ly: usize, lz: usize, x: usize, b: usize, r: usize, order: usize, red: i32, count: i32, sx: i32, plane: i32, q0: i32, q1: i32): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const f = ri32(order, q)
      wf64(r, f, rf64(b, f) - rf64(diag, f) * rf64(x, f) + rf64(lx, f) * rf64(x, f + 1) + rf64(lx, f - 1) * rf64(x, f - 1) + rf64(ly, f) * rf64(x, f + sx) + rf64(ly, f - sx) * rf64(x, f - sx) + rf64(lz, f) * rf64(x, f + plane) + rf64(lz, f - plane) * rf64(x, f - plane))
    }
  }
}

/** viscousDotSlab: the list's sum of a b, in its order, into partial[0]. */
export function viscousDot(a: usize, b: usize, faces: usize, count: i32, partial: usize, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  let s: f64 = 0
  for (let t = 0; t < count; t++) {
    const f = ri32(faces, t)
    s += rf64(a, f) * rf64(b, f)
  }
  wf64(partial, 0, s)
}

/** viscousUpdateIterateSlab: x += alpha s, r -= alpha q on the list; |r|^2 into partial[0]. */
export function viscousUpdateIterate(x: usize, r: usize, s: usize, q: usize, alpha: f64, faces: usize, count: i32, partial: usize, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  let rr: f64 = 0
  for (let t = 0; t < count; t++) {
    const f = ri32(faces, t)
    wf64(x, f, rf64(x, f) + alpha * rf64(s, f))
    const rf = rf64(r, f) - alpha * rf64(q, f)
    wf64(r, f, rf)
    rr += rf * rf
  }
  wf64(partial, 0, rr)
}

/** viscousUpdateSearchSlab: s = z + beta s on the list. */
export function viscousUpdateSearch(s: usize, z: usize, beta: f64, faces: usize, count: i32, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  for (let t = 0; t < count; t++) {
    const f = ri32(faces, t)
    wf64(s, f, rf64(z, f) + beta * rf64(s, f))
  }
}
