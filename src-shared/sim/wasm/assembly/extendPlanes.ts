// One layer of the liquid's breadth-first extension over z-planes (reference:
// src-shared/sim/liquid/extendPlanes.ts extendLayerSlab; why a layer splits by planes without
// locks is there). Each plane decides its own samples from marks no other thread changes
// during the layer, and each sample's mean is the reference's float64 sum in the same order:
// the same values and marks on any split.
import { rf32, ru8, wf32 } from './common'

const QUEUED: i32 = 255

@inline function average(f: usize, mark: usize, c: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32, sxy: i32, lim: i32): void {
  let s: f64 = 0
  let n: i32 = 0
  let m: i32
  if (i > 0) {
    m = ru8(mark, c - 1)
    if (m != 0 && m < lim) {
      s += rf32(f, c - 1)
      n++
    }
  }
  if (i < sx - 1) {
    m = ru8(mark, c + 1)
    if (m != 0 && m < lim) {
      s += rf32(f, c + 1)
      n++
    }
  }
  if (j > 0) {
    m = ru8(mark, c - sx)
    if (m != 0 && m < lim) {
      s += rf32(f, c - sx)
      n++
    }
  }
  if (j < sy - 1) {
    m = ru8(mark, c + sx)
    if (m != 0 && m < lim) {
      s += rf32(f, c + sx)
      n++
    }
  }
  if (k > 0) {
    m = ru8(mark, c - sxy)
    if (m != 0 && m < lim) {
      s += rf32(f, c - sxy)
      n++
    }
  }
  if (k < sz - 1) {
    m = ru8(mark, c + sxy)
    if (m != 0 && m < lim) {
      s += rf32(f, c + sxy)
      n++
    }
  }
  if (n == 0) return
  wf32(f, c, s / <f64>n)
  store<u8>(mark + <usize>c, <u8>lim)
}

@inline function push(mark: usize, list: usize, n: i32, c: i32, i: i32, j: i32): i32 {
  store<u8>(mark + <usize>c, <u8>QUEUED)
  store<i32>(list + (<usize>n << 2), i | (j << 16))
  return n + 1
}

@inline function queueInPlane(mark: usize, list: usize, n: i32, c: i32, i: i32, j: i32, sx: i32, sy: i32): i32 {
  if (i > 0 && ru8(mark, c - 1) == 0) n = push(mark, list, n, c - 1, i - 1, j)
  if (i < sx - 1 && ru8(mark, c + 1) == 0) n = push(mark, list, n, c + 1, i + 1, j)
  if (j > 0 && ru8(mark, c - sx) == 0) n = push(mark, list, n, c - sx, i, j - 1)
  if (j < sy - 1 && ru8(mark, c + sx) == 0) n = push(mark, list, n, c + sx, i, j + 1)
  return n
}

/** Whether the last layerOne saw a mark above 1 (not QUEUED) in its plane. */
let entryAbove1 = false

/** Layer 1's test for sample c = (i, j) of plane k, scalar: unknown with a known neighbour. */
@inline function joinsLayerOne(mark: usize, c: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32, sxy: i32): bool {
  return ru8(mark, c) == 0 && ((i > 0 && ru8(mark, c - 1) == 1) || (i < sx - 1 && ru8(mark, c + 1) == 1) || (j > 0 && ru8(mark, c - sx) == 1) ||
    (j < sy - 1 && ru8(mark, c + sx) == 1) || (k > 0 && ru8(mark, c - sxy) == 1) || (k < sz - 1 && ru8(mark, c + sxy) == 1))
}

@inline function scalarOne(mark: usize, out: usize, n: i32, c: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32, sxy: i32): i32 {
  const m = ru8(mark, c)
  if (m > 1 && m != QUEUED) entryAbove1 = true
  return joinsLayerOne(mark, c, i, j, k, sx, sy, sz, sxy) ? push(mark, out, n, c, i, j) : n
}

/**
 * Layer 1's queue for plane k (the samples extendLayerSlab's scalar test picks; the order in
 * the list differs, which changes nothing: a layer's means read only earlier layers). Sixteen
 * samples at a time: unknown lanes with a neighbour equal to 1, six byte loads per chunk; the
 * air and the liquid's inside have none and cost a few instructions per sixteen samples. A
 * chunk's loads stay inside its row (i from 1, last lane's right neighbour at most sx - 1);
 * the row's end is a chunk that overlaps the previous one (its queued lanes are QUEUED by then,
 * not 0, so they do not join twice), its first and last samples scalar.
 */
function layerOne(mark: usize, out: usize, sx: i32, sy: i32, sz: i32, k: i32, sxy: i32): i32 {
  entryAbove1 = false
  const base = k * sxy
  let n = 0
  const one = i8x16.splat(1), none = i8x16.splat(0), queued = i8x16.splat(<i8>QUEUED)
  let above = none
  for (let j = 0; j < sy; j++) {
    const row = base + sx * j
    if (sx < 18) {
      for (let i = 0; i < sx; i++) n = scalarOne(mark, out, n, row + i, i, j, k, sx, sy, sz, sxy)
      continue
    }
    n = scalarOne(mark, out, n, row, 0, j, k, sx, sy, sz, sxy)
    let i = 1
    for (;;) {
      const last = i + 16 > sx - 1
      if (last) i = sx - 17
      const c = row + i
      const at = mark + <usize>c
      const m = v128.load(at)
      let nb = v128.or(i8x16.eq(v128.load(at - 1), one), i8x16.eq(v128.load(at + 1), one))
      if (j > 0) nb = v128.or(nb, i8x16.eq(v128.load(at - <usize>sx), one))
      if (j < sy - 1) nb = v128.or(nb, i8x16.eq(v128.load(at + <usize>sx), one))
      if (k > 0) nb = v128.or(nb, i8x16.eq(v128.load(at - <usize>sxy), one))
      if (k < sz - 1) nb = v128.or(nb, i8x16.eq(v128.load(at + <usize>sxy), one))
      above = v128.or(above, v128.andnot(i8x16.gt_u(m, one), i8x16.eq(m, queued)))
      let bits = i8x16.bitmask(v128.and(i8x16.eq(m, none), nb))
      while (bits != 0) {
        const t = ctz(bits)
        n = push(mark, out, n, c + t, i + t, j)
        bits &= bits - 1
      }
      if (last) break
      i += 16
    }
    n = scalarOne(mark, out, n, row + sx - 1, sx - 1, j, k, sx, sy, sz, sxy)
  }
  if (v128.any_true(above)) entryAbove1 = true
  return n
}

/** extendLayerSlab over the row's planes [p0, p1). */
export function extendLayer(
  fu: usize, fv: usize, fw: usize, mu: usize, mv: usize, mw: usize, nx: i32, ny: i32, nz: i32,
  cells: i32, layer: i32, full: i32, lists: usize, counts: usize, p0: i32, p1: i32,
): void {
  const P = cells != 0 ? nz : 3 * nz + 1
  const uSize = (nx + 1) * ny * nz, vSize = nx * (ny + 1) * nz
  const half = cells != 0 ? nx * ny * nz : uSize + vSize + nx * ny * (nz + 1)
  const lim = layer + 1
  const nextBuf = (layer & 1) * half, prevBuf = half - nextBuf
  const prevCounts = counts + (<usize>(((layer - 1) & 1) * P) << 2)
  for (let p = p0; p < p1; p++) {
    let a = 0, k = p
    if (cells == 0) {
      k = p / 3
      a = k == nz ? 2 : p - 3 * k
    }
    const f = a == 0 ? fu : a == 1 ? fv : fw
    const mark = a == 0 ? mu : a == 1 ? mv : mw
    const sx = cells == 0 && a == 0 ? nx + 1 : nx, sy = cells == 0 && a == 1 ? ny + 1 : ny, sz = cells == 0 && a == 2 ? nz + 1 : nz
    const sxy = sx * sy, base = k * sxy
    const lattice0 = cells != 0 || a == 0 ? 0 : a == 1 ? uSize : uSize + vSize
    const out = lists + (<usize>(nextBuf + lattice0 + base) << 2)
    let n = 0
    if (layer == 1) {
      n = layerOne(mark, out, sx, sy, sz, k, sxy)
      store<i32>(counts + (<usize>(2 * P + p) << 2), entryAbove1 ? 1 : 0)
    } else if (full != 0) {
      for (let j = 0; j < sy; j++) {
        let c = base + sx * j
        for (let i = 0; i < sx; i++, c++) if (ru8(mark, c) == 0) average(f, mark, c, i, j, k, sx, sy, sz, sxy, lim)
      }
      continue
    } else {
      const from = lists + (<usize>(prevBuf + lattice0) << 2)
      const own = from + (<usize>base << 2)
      const ownCount = load<i32>(prevCounts + (<usize>p << 2))
      for (let t = 0; t < ownCount; t++) {
        const e = load<i32>(own + (<usize>t << 2)), i = e & 0xffff, j = e >>> 16
        n = queueInPlane(mark, out, n, base + i + sx * j, i, j, sx, sy)
      }
      for (let d = -1; d <= 1; d += 2) {
        const kk = k + d
        if (kk < 0 || kk >= sz) continue
        const pp = cells != 0 ? kk : a == 2 && kk == nz ? 3 * nz : 3 * kk + a
        const other = from + (<usize>(kk * sxy) << 2)
        const otherCount = load<i32>(prevCounts + (<usize>pp << 2))
        for (let t = 0; t < otherCount; t++) {
          const e = load<i32>(other + (<usize>t << 2)), i = e & 0xffff, j = e >>> 16
          const c = base + i + sx * j
          if (ru8(mark, c) == 0) n = push(mark, out, n, c, i, j)
        }
      }
    }
    for (let t = 0; t < n; t++) {
      const e = load<i32>(out + (<usize>t << 2)), i = e & 0xffff, j = e >>> 16
      average(f, mark, base + i + sx * j, i, j, k, sx, sy, sz, sxy, lim)
    }
    store<i32>(counts + (<usize>((layer & 1) * P + p) << 2), n)
  }
}
