// The liquid surface mesher's deep cells (reference: src-shared/sim/liquid/surface/
// surfaceDeepKernels.ts markDeepCellsSlab): the inside cells from the simulation's level set,
// then two box erosions of them (settle, settle + reach), each one axis at a time by running
// counts, and the deep cells per plane. One call does it all (its range is one index).
import { rf32, ri32, ru8, wi32 } from './common'

@inline function wu8(p: usize, i: i32, v: i32): void {
  store<u8>(p + <usize>i, <u8>v)
}

/** Erodes m in place along one axis: `outer` blocks of `len` slices of `inner` contiguous cells (markDeepCellsSlab's erodeAxis). */
function erodeAxis(m: usize, radius: i32, len: i32, inner: i32, outer: i32, prefix: usize): void {
  if (inner == 1) {
    // Contiguous lines: one running count each.
    for (let o = 0; o < outer; o++) {
      const base = o * len
      wi32(prefix, 0, 0)
      for (let t = 0; t < len; t++) wi32(prefix, t + 1, ri32(prefix, t) + ru8(m, base + t))
      for (let t = 0; t < len; t++) {
        const a = max(0, t - radius), b = min(len, t + radius + 1)
        wu8(m, base + t, ri32(prefix, b) - ri32(prefix, a) == b - a ? 1 : 0)
      }
    }
    return
  }
  for (let o = 0; o < outer; o++) {
    const base = o * len * inner
    memory.fill(prefix, 0, <usize>inner << 2)
    for (let t = 0; t < len; t++) {
      const p0 = t * inner, p1 = p0 + inner, s = base + p0
      for (let u = 0; u < inner; u++) wi32(prefix, p1 + u, ri32(prefix, p0 + u) + ru8(m, s + u))
    }
    for (let t = 0; t < len; t++) {
      const a = max(0, t - radius), b = min(len, t + radius + 1), span = b - a
      const pa = a * inner, pb = b * inner, s = base + t * inner
      for (let u = 0; u < inner; u++) wu8(m, s + u, ri32(prefix, pb + u) - ri32(prefix, pa + u) == span ? 1 : 0)
    }
  }
}

function erode(src: usize, out: usize, radius: i32, cnx: i32, cny: i32, cnz: i32, prefix: usize): void {
  memory.copy(out, src, <usize>(cnx * cny * cnz))
  if (radius > 0) {
    erodeAxis(out, radius, cnx, 1, cny * cnz, prefix)
    erodeAxis(out, radius, cny, cnx, cnz, prefix)
    erodeAxis(out, radius, cnz, cnx * cny, 1, prefix)
  }
}

export function markDeepCells(phi: usize, inside: usize, deep: usize, skip: usize, prefix: usize, result: usize, depth: f64, settle: i32, reach: i32, minInside: i32, cnx: i32, cny: i32, cnz: i32, k0: i32, k1: i32): void {
  if (k0 != 0 || k1 < 1) return
  let count = 0
  let c = 0
  for (let k = 0; k < cnz; k++) for (let j = 0; j < cny; j++) {
    const rowSide = k == 0 || j == 0 || k == cnz - 1 || j == cny - 1
    for (let i = 0; i < cnx; i++, c++) {
      const d = !rowSide && i > 0 && i < cnx - 1 && rf32(phi, c) < -depth ? 1 : 0
      wu8(inside, c, d)
      count += d
    }
  }
  wi32(result, 0, 0)
  if (count == 0 || count < minInside) return
  erode(inside, deep, settle, cnx, cny, cnz, prefix)
  erode(inside, skip, settle + reach, cnx, cny, cnz, prefix)
  const plane = cnx * cny
  let total = 0
  for (let k = 0; k < cnz; k++) {
    let m = 0
    for (let q = k * plane; q < (k + 1) * plane; q++) m += ru8(deep, q)
    wi32(result, 1 + k, m)
    total += m
  }
  wi32(result, 0, total)
}
